import Foundation
import Testing

/// `contract fixtures` through the real binary: the example app's committed fixtures are current,
/// and an edited contract makes `--check` fail with the reason.
struct FixturesCommandTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let exampleFixtures = "examples/MarketClient/Tests/MarketClientTests/Fixtures"

    @Test func theExampleAppsFixturesAreCurrent() async throws {
        let result = try await ContractBinary.run(["fixtures", "--check", "--out", Self.exampleFixtures, "contracts"], in: Self.packageRoot)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("17 fixtures up to date"))
    }

    @Test func anEditedContractFailsTheCheckWithItsReason() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-cli-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("contracts"), to: work.appendingPathComponent("contracts"))
        let written = try await ContractBinary.run(["fixtures", "--out", "out", "contracts"], in: work)
        #expect(written.exitCode == 0)
        #expect(written.stdout.contains("17 fixtures in out: 17 written"))
        let health = work.appendingPathComponent("contracts/health.json")
        let text = try String(contentsOf: health, encoding: .utf8)
        try text.replacing(#""example": { "status": "ok" }"#, with: #""example": { "status": "ok", "uptime": 5 }"#).write(to: health, atomically: true, encoding: .utf8)
        let check = try await ContractBinary.run(["fixtures", "--check", "--out", "out", "contracts"], in: work)
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("stale: health.get/ok.json: differs from what health.get/ok in contracts/health.json gives now"))
        #expect(check.stdout.contains("run 'contract fixtures --out out contracts'"))
    }

    /// The bytes must not depend on how the contracts folder is spelled or where the command runs:
    /// the example app's own comment runs it as `../../contracts` from the app's folder.
    @Test func fixturesAreTheSameFromAnyFolderAndSpelling() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("app/Tests"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("contracts"), to: work.appendingPathComponent("contracts"))
        let fromRoot = try await ContractBinary.run(["fixtures", "--out", "one", "contracts"], in: work)
        let dotted = try await ContractBinary.run(["fixtures", "--out", "two", "./contracts/"], in: work)
        let fromApp = try await ContractBinary.run(["fixtures", "--out", "../../three", "../../contracts"], in: work.appendingPathComponent("app/Tests"))
        let absolute = try await ContractBinary.run(["fixtures", "--out", work.appendingPathComponent("four").path, work.appendingPathComponent("contracts").path], in: Self.packageRoot)
        for run in [fromRoot, dotted, fromApp, absolute] { #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)") }
        func files(_ name: String) throws -> [String: Data] {
            let folder = work.appendingPathComponent(name)
            var result: [String: Data] = [:]
            let paths = try #require(FileManager.default.enumerator(atPath: folder.path))
            for case let path as String in paths {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                result[path] = try Data(contentsOf: folder.appendingPathComponent(path))
            }
            return result
        }
        let one = try files("one")
        #expect(one.count == 18)
        for other in ["two", "three", "four"] { #expect(try files(other) == one, "\(other) differs from one") }
        // A check from another folder, with another spelling, finds nothing stale.
        let check = try await ContractBinary.run(["fixtures", "--check", "--out", "../../one", "../../contracts/"], in: work.appendingPathComponent("app/Tests"))
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("17 fixtures up to date"))
    }

    @Test func aCaseThatCannotBeSynthesizedWritesNothing() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("contracts"), withIntermediateDirectories: true)
        try """
            { "id": "odd", "request": { "method": "GET", "path": "/odd" },
              "cases": [ { "name": "lookahead", "response": { "status": 200, "schema": { "type": "string", "pattern": "^(?=a)b$" } } } ] }
            """.write(to: work.appendingPathComponent("contracts/odd.json"), atomically: true, encoding: .utf8)
        let result = try await ContractBinary.run(["fixtures", "--out", "out", "contracts"], in: work)
        #expect(result.exitCode == 2)
        // Compiler-style, at the case, so editors and CI annotate it.
        #expect(result.stderr.hasPrefix("contracts/odd.json:2:14: error: odd/lookahead: cannot synthesize a body valid against its schema"), "\(result.stderr)")
        #expect(result.stderr.contains("[/cases/0]\nno fixtures written\n"))
        #expect(result.stderr.contains("add an 'example' to the response"))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out").path))
    }
}
