import Foundation
import Testing

/// Compares output with a file beside the tests; `RECORD_GOLDEN=1 swift test` rewrites the files instead.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "differs from Golden/\(name); run RECORD_GOLDEN=1 swift test to re-record", sourceLocation: sourceLocation)
    }
}
