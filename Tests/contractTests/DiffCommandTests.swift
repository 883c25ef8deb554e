import Foundation
import TestSupport
import Testing

/// `contract diff` through the binary, as a pull request's CI runs it: a git revision against the
/// work tree, the reports, the exit codes, and accepting a change with a reason.
@Suite(.serialized)
struct DiffCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("diff-command-\(UUID().uuidString)")

    func contract(_ arguments: [String]) async throws -> ContractBinary.Result {
        try await ContractBinary.run(arguments, in: folder)
    }

    func git(_ arguments: [String]) throws {
        let (status, _, error) = try ChildProcess.run("/usr/bin/env", ["git"] + arguments, in: folder.path)
        #expect(status == 0, "git \(arguments): \(String(decoding: error, as: UTF8.self))")
    }

    /// A repository whose last commit holds the example contracts, and a work tree where the
    /// delete answers 200 with a body instead of 204.
    func repository() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ExampleAPITests.packageRoot.appendingPathComponent("contracts"), to: folder.appendingPathComponent("contracts"))
        try git(["init", "-q"])
        try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "add", "contracts"])
        try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "contracts"])
        let delete = folder.appendingPathComponent("contracts/products/delete.json")
        let text = try String(contentsOf: delete, encoding: .utf8)
        try text.replacingOccurrences(of: #""response": { "status": 204, "empty": true }"#, with: #""response": { "status": 200 }"#)
            .write(to: delete, atomically: true, encoding: .utf8)
    }

    @Test func aPullRequestsEditIsComparedWithItsBase() async throws {
        try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await contract(["diff", "HEAD:contracts", "contracts", "--report", "json=diff.json", "--report", "markdown=diff.md", "--report", "junit=diff.xml"])
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stdout.contains("contracts/products/delete.json:30:31: breaking: products.delete/deleted: status 204 to 200 [response-status-changed]"), "\(result.stdout)")
        #expect(result.stdout.contains("  was: HEAD:contracts/products/delete.json:30:31 (204)"), "\(result.stdout)")
        let json = try String(contentsOf: folder.appendingPathComponent("diff.json"), encoding: .utf8)
        #expect(json.contains(#""format": "contract-diff-report""#) && json.contains(#""rule": "response-status-changed""#))
        #expect(try String(contentsOf: folder.appendingPathComponent("diff.md"), encoding: .utf8).contains("breaking"))
        #expect(try String(contentsOf: folder.appendingPathComponent("diff.xml"), encoding: .utf8).contains("<failure"))

        // The team means it: accepted with a reason, the run passes and says what it accepted.
        let fingerprint = try #require(result.stdout.firstMatch(of: /\[response-status-changed\] #([0-9a-f]{16})/)?.1)
        let body = try #require(result.stdout.firstMatch(of: /\[response-body-unchecked\] #([0-9a-f]{16})/)?.1)
        try """
            {
              "format": "contract-diff-ignore",
              "version": 1,
              "changes": [
                {"change":"products.delete/deleted","fingerprint":"\(fingerprint)","reason":"v2: DELETE answers 200","rule":"response-status-changed"},
                {"change":"products.delete/deleted","fingerprint":"\(body)","reason":"v2: DELETE answers 200","rule":"response-body-unchecked"}
              ]
            }
            """.write(to: folder.appendingPathComponent("accepted.json"), atomically: true, encoding: .utf8)
        let accepted = try await contract(["diff", "HEAD:contracts", "contracts", "--ignore", "accepted.json"])
        #expect(accepted.exitCode == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(accepted.stdout.contains("(ignored: v2: DELETE answers 200)"), "\(accepted.stdout)")
        // Warnings fail the run only when asked to.
        let strict = try await contract(["diff", "HEAD:contracts", "contracts", "--ignore", "accepted.json", "--fail-on", "warning"])
        #expect(strict.exitCode == 1, "the stale fixture is a warning: \(strict.stdout)")
    }

    /// A reviewer accepts what a pull request changes in one command: the ignore file is made,
    /// one entry per change that failed the run, and the run passes with them ignored.
    @Test func acceptingWritesTheIgnoreFile() async throws {
        try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let accepted = try await contract(["diff", "HEAD:contracts", "contracts", "--ignore", "accepted.json", "--accept", "v2: DELETE answers 200", "--expires", "2099-01-31"])
        #expect(accepted.exitCode == 0, "\(accepted.stdout)\(accepted.stderr)")
        let file = try String(contentsOf: folder.appendingPathComponent("accepted.json"), encoding: .utf8)
        let entries = file.split(separator: "\n").filter { $0.contains("\"fingerprint\"") }
        #expect(entries.count == 1 && entries[0].contains(#""rule":"response-status-changed""#) && entries[0].contains(#""expires":"2099-01-31""#), "\(file)")
        let again = try await contract(["diff", "HEAD:contracts", "contracts", "--ignore", "accepted.json"])
        #expect(again.exitCode == 0)
        #expect(again.stdout.contains("(1 ignored)"), "\(again.stdout)")
        let alone = try await contract(["diff", "HEAD:contracts", "contracts", "--accept", "why"])
        #expect(alone.exitCode == 2)
        #expect(alone.stderr.contains("--accept writes into the ignore file: give it with --ignore FILE"))
    }

    @Test func whatCannotBeComparedExitsTwo() async throws {
        try repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try await contract(["diff", "contracts", "nowhere"])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("nothing was compared"), "\(missing.stderr)")
        let badFailOn = try await contract(["diff", "contracts", "contracts", "--fail-on", "safe"])
        #expect(badFailOn.exitCode == 2)
        // Typed: the parser names the choices, and where to read about them.
        #expect(badFailOn.stderr.contains("'safe' is invalid for '--fail-on") && badFailOn.stderr.contains("'breaking' and 'warning'"), "\(badFailOn.stderr)")
        #expect(badFailOn.stderr.contains("Run 'contract help diff' for its options."), "\(badFailOn.stderr)")
        let same = try await contract(["diff", "contracts", "contracts"])
        #expect(same.exitCode == 0)
        #expect(same.stdout.contains("0 breaking, 0 warnings, 0 safe"), "\(same.stdout)")
    }
}
