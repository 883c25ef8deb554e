import Foundation
import TestSupport
import Testing

/// Files a person names are read with a stated limit, and one beyond it is refused with a message
/// that names the file and the limit, before it is read (a sparse file of any size costs nothing
/// to make here, and must cost nothing to refuse).
struct InputLimitTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-limits-\(UUID().uuidString)")

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A file of `size` bytes that holds no data (a hole), so a read of it would take the time the
    /// refusal must not.
    func sparse(_ name: String, size: Int, startingWith text: String = "") throws {
        guard FileManager.default.createFile(atPath: path(name), contents: Data(text.utf8)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path(name)])
        }
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(name))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    @Test func anOpenAPIDocumentOverTheLimitIsRefused() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try sparse("huge.yaml", size: 64 << 20 + 1, startingWith: "openapi: 3.0.3\n")
        let result = try await ContractBinary.run(["import", "openapi", "huge.yaml", "--out", "contracts"], in: folder)
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("huge.yaml: error: the file is too large: the import reads at most 64 MiB a file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("contracts")), "nothing written")
    }

    /// Another file of a split document over the limit is left out with a warning at the reference.
    @Test func aSplitDocumentsFileOverTheLimitIsLeftOut() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            openapi: 3.0.3
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {$ref: './big.yaml'}
              /b:
                get:
                  responses:
                    '200': {description: ok}
            """.write(toFile: path("api.yaml"), atomically: false, encoding: .utf8)
        try sparse("big.yaml", size: 64 << 20 + 1, startingWith: "type: object\n")
        let result = try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "contracts"], in: folder)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("big.yaml: warning: the file is too large: the import reads at most 64 MiB a file; what refers to it is left out"), "\(result.stderr)")
    }

    /// A file in a contract tree past the limit (a dump saved as `.json`) is reported at its path
    /// and never read; the rest of the tree is still loaded and checked.
    @Test func aContractFileOverTheLimitIsReportedUnread() async throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("contracts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            {"id": "items.get", "request": {"method": "GET", "path": "/items"}, "cases": [{"name": "ok", "response": {"status": 200}}]}
            """.write(toFile: path("contracts/items.json"), atomically: false, encoding: .utf8)
        try sparse("contracts/dump.json", size: (1 << 30) + 1, startingWith: "{")
        let result = try await ContractBinary.run(["lint", "contracts"], in: folder)
        #expect(result.exitCode == 2, "lint's exit code for errors: \(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("contracts/dump.json: error: the file is too large: a contract or schema file is at most 1 GiB"), "\(output)")
        #expect(!output.contains("items.json"), "the other contract loads cleanly: \(output)")
    }

    @Test func anIgnoreFileOverTheLimitsIsRefused() async throws {
        try FileManager.default.createDirectory(atPath: path("old"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"id": "a", "request": {"method": "GET", "path": "/a"}, "cases": [{"name": "b", "response": {"status": 200}}]}"#
            .write(toFile: path("old/a.json"), atomically: false, encoding: .utf8)
        try sparse("huge.json", size: 64 << 20 + 1)
        let huge = try await ContractBinary.run(["diff", "old", "old", "--ignore", "huge.json"], in: folder)
        #expect(huge.exitCode == 2)
        #expect(huge.stderr.contains("huge.json: error: expected an ignore file of at most 64 MiB (100,000 entries at most); this file is larger"), "\(huge.stderr)")

        let entry = #"{"change": "a/b", "fingerprint": "0123456789abcdef", "reason": "r"}"#
        try #"{"format": "contract-diff-ignore", "version": 1, "changes": ["#
            .appending(Array(repeating: entry, count: 100_001).joined(separator: ",\n")).appending("]}")
            .write(toFile: path("many.json"), atomically: false, encoding: .utf8)
        let many = try await ContractBinary.run(["diff", "old", "old", "--ignore", "many.json"], in: folder)
        #expect(many.exitCode == 2)
        #expect(many.stderr.contains("many.json:1:61: error: expected at most 100,000 entries (an ignore file lists the changes a team accepted), found 100,001"), "\(many.stderr)")
    }
}
