import Foundation

/// The shared test data beside the project (`../shared`): JSONTestSuite, JSON-Schema-Test-Suite,
/// benchmark data. Found through `CONTRACT_SHARED_DIR`, else `../shared` from the package root,
/// else `/work/shared`; tests that need it fail loudly when it is nowhere.
public enum SharedData {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let directory: URL = {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["CONTRACT_SHARED_DIR"] {
            candidates.append(URL(fileURLWithPath: configured))
        }
        candidates.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared"))
        candidates.append(URL(fileURLWithPath: "/work/shared"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[0]
    }()

    public static func url(_ relativePath: String) -> URL {
        directory.appendingPathComponent(relativePath)
    }
}
