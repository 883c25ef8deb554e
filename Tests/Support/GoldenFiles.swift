import Foundation
import Testing

/// Compares output with files in a folder beside the tests; `RECORD_GOLDEN=1 swift test`
/// rewrites the files instead. Each test target keeps its own `Golden` folder.
public struct GoldenFiles: Sendable {
    public let directory: URL

    /// The `Golden` folder next to the calling test file.
    public init(besides filePath: String = #filePath) {
        directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
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
