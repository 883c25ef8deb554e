import Foundation
import TestSupport
import Testing

/// `contract coverage` on the real binary: its exit codes, the refusal of a gate without its
/// input, and a run over the example's contracts with a usage folder.
struct CoverageCommandTests {
    static let root = ExampleAPITests.packageRoot

    @Test func aGateWithoutItsInputIsRefusedWithExit2AndAHint() async throws {
        let result = try await ContractBinary.run(["coverage", "contracts", "--fail-on", "used-unverified"], in: Self.root)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("error: --fail-on used-unverified needs --usage and --verify-report"))
        #expect(result.stderr.contains("Run 'contract help coverage'"))
        let unknown = try await ContractBinary.run(["coverage", "contracts", "--fail-on", "everything"], in: Self.root)
        #expect(unknown.exitCode == 2)
        #expect(unknown.stderr.contains("everything"))
    }

    @Test func theExampleWithUsageGetsItsTableAndTheGateItAskedFor() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let lines = [
            #"{"format":"contract-usage","process":7,"recorder":"ContractTesting","version":1}"#,
            #"{"case":"found","contract":"products.get","method":"GET","outcome":"answered","path":"/api/products/1","test":"MarketClientTests/testFetch"}"#,
            #"{"case":"ok","contract":"health.get","method":"GET","outcome":"answered","path":"/health","test":"MarketClientTests/testHealth"}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("usage-7-a.jsonl"))
        let passing = try await ContractBinary.run(["coverage", "contracts", "--usage", folder.path, "--min-used", "10"], in: Self.root)
        #expect(passing.exitCode == 0, "\(passing.stderr)")
        #expect(passing.stdout.contains("used by the tests  2 of 17 cases (11%), 2 requests from 2 tests in 1 usage file"))
        #expect(passing.stdout.contains("gate: passed (--min-used 10)"))
        let failing = try await ContractBinary.run(["coverage", "contracts", "--usage", folder.path, "--min-used", "12"], in: Self.root)
        #expect(failing.exitCode == 1)
        #expect(failing.stdout.contains("the tests use 2 of 17 cases (11%), under --min-used 12%"))
    }
}
