import Foundation
import TestSupport
import Testing

/// The harness that starts the binary and servers for the tests: a child gets the standard
/// descriptors only. A suite that keeps a server running for minutes would otherwise hold open
/// for writing whatever file another test was writing when the server started, and that test's
/// script would fail to run with "Text file busy" (it did, in CI).
struct ChildProcessTests {
    @Test func onlyTheStandardDescriptorsReachTheChild() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inherited-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor > 2)
        defer { close(descriptor); unlink(path) }
        let (status, output, _) = try ChildProcess.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
        #expect(status == 0)
        let open = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(!open.isEmpty)
        #expect(!open.contains(Int(descriptor)), "the child holds \(open)")
        #expect(open.allSatisfy { $0 <= 2 || $0 == 255 }, "the child holds \(open)")
    }
}
