import Foundation
import Testing

/// Compares output with files in a folder beside the tests; `RECORD_GOLDEN=1 swift test`
/// rewrites the files instead. Each test target keeps its own `Golden` folder.
public struct GoldenFiles: Sendable {
    public let directory: URL

    /// The test target's `Golden` folder: beside the calling test file, or beside the folder it is
    /// in (test files sit in folders that mirror the sources', `Tests/ContractVerifierTests/Plan/`).
    public init(besides filePath: String = #filePath) {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Golden").path), folder.deletingLastPathComponent().lastPathComponent != "Tests",
            folder.pathComponents.count > 2
        {
            folder = folder.deletingLastPathComponent()
        }
        directory = folder.appendingPathComponent("Golden")
    }

    public func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "differs from Golden/\(name); run RECORD_GOLDEN=1 swift test to re-record", sourceLocation: sourceLocation)
    }
}
