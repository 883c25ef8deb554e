import Foundation
import Testing

/// Runs the real `contract` binary, as users and CI do.
struct LintCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func exampleContractsAreClean() throws {
        let result = try ContractBinary.run(["lint", "contracts"], in: Self.packageRoot)
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(!result.stdout.contains("error:"))
        #expect(result.stdout.hasSuffix("no problems\n"))
    }

    @Test func defaultDirectoryIsContracts() throws {
        let result = try ContractBinary.run(["lint"], in: Self.packageRoot)
        #expect(result.exitCode == 0)
    }

    @Test func brokenContractsExitWithTwoAndCompilerStyleLines() throws {
        let golden = Self.packageRoot.appendingPathComponent("Tests/ContractModelTests/Golden")
        let result = try ContractBinary.run(["lint", "broken"], in: golden)
        #expect(result.exitCode == 2)
        let expected = try String(contentsOf: golden.appendingPathComponent("broken.txt"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func jsonFormat() throws {
        let golden = Self.packageRoot.appendingPathComponent("Tests/ContractModelTests/Golden")
        let result = try ContractBinary.run(["lint", "broken", "--format", "json"], in: golden)
        #expect(result.exitCode == 2)
        let expected = try String(contentsOf: golden.appendingPathComponent("broken.json"), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func missingDirectoryIsAnErrorOnStandardError() throws {
        let result = try ContractBinary.run(["lint", "no-such-dir"], in: Self.packageRoot)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "error: No such directory 'no-such-dir'\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownFormatIsAUsageError() throws {
        let result = try ContractBinary.run(["lint", "--format", "xml"], in: Self.packageRoot)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("'xml'"))
    }
}
