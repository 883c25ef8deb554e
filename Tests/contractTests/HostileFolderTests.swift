import Foundation
import Testing

/// The output folders of `contract fixtures` and `contract import openapi` written by someone who
/// wants the CI runner's files gone: a manifest naming paths outside the folder, links leading out,
/// temporary files of a killed run. Nothing outside the folder is ever touched.
struct HostileFolderTests {
    static let packageRoot = FixturesCommandTests.packageRoot
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("contracts"), to: work.appendingPathComponent("contracts"))
        try write("victim", to: "victimdir/victim.txt")
        try write("victim", to: "outside/ok.json")
    }

    func write(_ text: String, to relative: String) throws {
        let url = work.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func read(_ relative: String) -> String? {
        try? String(contentsOf: work.appendingPathComponent(relative), encoding: .utf8)
    }

    func fixtures(_ arguments: [String] = []) async throws -> ContractBinary.Result {
        try await ContractBinary.run(["fixtures", "--out", "fx/out"] + arguments + ["contracts"], in: work)
    }

    /// A manifest entry `../../victimdir/victim.txt` made the next run delete the file.
    @Test func aManifestPathOutsideTheFolderIsRefused() async throws {
        #expect(try await fixtures().exitCode == 0)
        // One more entry, as a hostile pull request would add it.
        let url = work.appendingPathComponent("fx/out/contract-fixtures.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var entries = try #require(manifest["fixtures"] as? [[String: Any]])
        var hostile = entries[0]
        hostile["path"] = "../../victimdir/victim.txt"
        entries.append(hostile)
        manifest["fixtures"] = entries
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
        for arguments in [[], ["--check"]] {
            let result = try await fixtures(arguments)
            #expect(result.exitCode == 2, "\(arguments) \(result.stdout)")
            let line = try #require(result.stderr.split(separator: "\n").first)
            #expect(line.hasPrefix("\(work.path)/fx/out/contract-fixtures.json:1:"))
            #expect(line.contains(": error: the path '../../victimdir/victim.txt' has a '..' component, which could leave the folder"))
            #expect(line.hasSuffix("[/fixtures/17/path]"), "\(line)")
        }
        #expect(read("victimdir/victim.txt") == "victim")
    }

    /// `fx/out/health.get -> ../../outside`: the run wrote and overwrote files outside `--out`.
    @Test func aLinkedFolderInsideIsNeverWrittenThrough() async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("fx/out"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("fx/out/health.get").path, withDestinationPath: "../../outside")
        let result = try await fixtures()
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("fx/out/health.get is a symbolic link; nothing is ever written through a link, so remove it"), "\(result.stderr)")
        #expect(read("outside/ok.json") == "victim")
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("outside").path) == ["ok.json"])
    }

    /// An owned fixture replaced by a link to a victim: the next run replaces the link, never the victim.
    @Test func anOwnedFileReplacedByALinkIsReplacedNotFollowed() async throws {
        #expect(try await fixtures().exitCode == 0)
        let owned = work.appendingPathComponent("fx/out/health.get/ok.json").path
        try FileManager.default.removeItem(atPath: owned)
        try FileManager.default.createSymbolicLink(atPath: owned, withDestinationPath: work.appendingPathComponent("victimdir/victim.txt").path)
        let result = try await fixtures()
        #expect(result.exitCode == 2, "a link where a fixture goes is refused")
        #expect(read("victimdir/victim.txt") == "victim")
    }

    /// After a kill, `*.contract-tmp` files and a half-built folder beside `--out` stayed, and
    /// `--check` said "up to date".
    @Test func leftoversOfAKilledRunAreReportedThenRemoved() async throws {
        #expect(try await fixtures().exitCode == 0)
        try write("half", to: "fx/out/health.get/.ok.json.contract-tmp")
        try write("half", to: "fx/.out.contract-swap-99999/health.get/ok.json")
        let check = try await fixtures(["--check"])
        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("leftover: \(work.path)/fx/.out.contract-swap-99999: left by an interrupted run"), "\(check.stdout)")
        #expect(check.stdout.contains("leftover: \(work.path)/fx/out/health.get/.ok.json.contract-tmp"))
        #expect(try await fixtures().exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("fx").path) == ["out"])
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("fx/out/health.get/.ok.json.contract-tmp").path))
        #expect(try await fixtures(["--check"]).exitCode == 0)
    }

    func importDocument() async throws -> ContractBinary.Result {
        try write(ImportCommandTests.valid, to: "api.yaml")
        return try await ContractBinary.run(["import", "openapi", "api.yaml", "--out", "imported"], in: work)
    }

    @Test func anImportManifestPathOutsideTheFolderIsRefused() async throws {
        try write(#"{"files": {"../victimdir/victim.txt": "0"}}"#, to: "imported/.contract-import.json")
        let result = try await importDocument()
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("imported/.contract-import.json:1:12: error: the path '../victimdir/victim.txt' has a '..' component"), "\(result.stderr)")
        #expect(result.stderr.contains("[/files/..~1victimdir~1victim.txt]"))
        #expect(read("victimdir/victim.txt") == "victim")
    }

    @Test func anImportNeverWritesThroughALink() async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("imported"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("imported/health.json").path, withDestinationPath: "../outside/ok.json")
        let result = try await importDocument()
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("imported/health.json is a symbolic link"), "\(result.stderr)")
        #expect(read("outside/ok.json") == "victim")
    }
}
