import Foundation
import Testing

/// Runs the real `contract` binary, as users and CI do.
struct LintCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func exampleContractsAreClean() async throws {
        let result = try await ContractBinary.run(["lint", "contracts"], in: Self.packageRoot)
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("error:"))
        #expect(result.stdout.hasSuffix("no problems\n"))
    }

    @Test func defaultDirectoryIsContracts() async throws {
        let result = try await ContractBinary.run(["lint"], in: Self.packageRoot)
        #expect(result.exitCode == 0)
    }

    @Test func brokenContractsExitWithTwoAndCompilerStyleLines() async throws {
        let golden = Self.packageRoot.appendingPathComponent("Tests/ContractModelTests/Golden")
        let result = try await ContractBinary.run(["lint", "broken"], in: golden)
        #expect(result.exitCode == 2)
        let expected = try String(contentsOf: golden.appendingPathComponent("broken.txt"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func jsonFormat() async throws {
        let golden = Self.packageRoot.appendingPathComponent("Tests/ContractModelTests/Golden")
        let result = try await ContractBinary.run(["lint", "broken", "--format", "json"], in: golden)
        #expect(result.exitCode == 2)
        let expected = try String(contentsOf: golden.appendingPathComponent("broken.json"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func anIdThatIsTheFixturesManifestsNameExitsWithTwo() async throws {
        // `contract fixtures` would write this contract's folder over its own manifest.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lint-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let contract = """
            { "id": "contract-fixtures.json",
              "request": { "method": "GET", "path": "/a" },
              "cases": [{ "name": "ok", "response": { "status": 200 } }] }
            """
        try Data(contract.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let result = try await ContractBinary.run(["lint", "c"], in: root)
        #expect(result.exitCode == 2)
        #expect(result.stdout.hasPrefix(
            #"c/manifest.json:1:9: error: 'id' must not be "contract-fixtures.json" in any case: the fixtures folder keeps that name for its manifest, found "contract-fixtures.json" [/id]"# + "\n"),
            "\(result.stdout)")
    }

    @Test func missingDirectoryIsAnErrorOnStandardError() async throws {
        let result = try await ContractBinary.run(["lint", "no-such-dir"], in: Self.packageRoot)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "error: No such directory 'no-such-dir'\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownFormatIsAUsageError() async throws {
        let result = try await ContractBinary.run(["lint", "--format", "xml"], in: Self.packageRoot)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("'xml'"))
    }
}
