import Foundation
import TestSupport
import Testing

/// The nightly drift gate, end to end on the example API through the real binary: a first run
/// writes a baseline; the drifting server with that baseline passes with everything known; drift
/// the baseline does not know fails the run, named alone; drift that went away is listed as fixed.
@Suite(.serialized)
struct NightlyBaselineTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-\(UUID().uuidString)")

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func verify(_ server: ExampleAPITests.RunningServer, _ extra: [String]) async throws -> ContractBinary.Result {
        try await ExampleAPITests().verify(server, extra)
    }

    func contract(_ arguments: [String]) async throws -> ContractBinary.Result {
        try await ContractBinary.run(arguments, in: ExampleAPITests.packageRoot)
    }

    @Test func aNightlyRunFailsOnlyOnNewDrift() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let drifting = try await ExampleAPITests.RunningServer.started(["--drift"])

        // The first night: the drifting mode's nine drifts, twenty-seven findings, written down as known.
        let first = try await verify(drifting, ["--report", "json=\(path("first.json"))"])
        #expect(first.exitCode == 1)
        let written = try await contract(["baseline", path("first.json"), "--out", path("baseline.json"), "--reason", "tracked in API-42"])
        #expect(written.exitCode == 0, "\(written.stderr)")
        #expect(written.stdout.contains("27 known findings (27 added, 0 kept, 0 removed as fixed)"))
        let baseline = try String(contentsOfFile: path("baseline.json"), encoding: .utf8)
        let entries = baseline.split(separator: "\n").filter { $0.contains("\"fingerprint\"") }
        #expect(entries.count == 27, "one entry per line, a finding per entry:\n\(baseline)")
        #expect(entries.map { $0.contains("\"case\":\"products.") }.allSatisfy { $0 })

        // The next night, the same drift: known, so the gate is green.
        let known = try await verify(drifting, ["--baseline", path("baseline.json")])
        #expect(known.exitCode == 0, "\(known.stdout)\(known.stderr)")
        #expect(known.stdout.contains("findings against the baseline: 0 new, 27 known, 0 fixed"))
        #expect(known.stdout.contains("(known: tracked in API-42)"))
        // Unless the team asks for any finding to fail it.
        #expect(try await verify(drifting, ["--baseline", path("baseline.json"), "--fail-on", "any"]).exitCode == 1)

        // Drift the baseline does not know (its entry taken out, as if the server had just
        // started to send it): red, and only that one is new.
        let deleteEntry = try #require(entries.first { $0.contains("products.delete") }, "\(baseline)")
        // Entries are lines, each ending in its comma but the last, which this one is not.
        #expect(deleteEntry.hasSuffix(","))
        let withoutDelete = baseline.replacingOccurrences(of: deleteEntry + "\n", with: "")
        try withoutDelete.write(toFile: path("older.json"), atomically: true, encoding: .utf8)
        let fresh = try await verify(drifting, ["--baseline", path("older.json")])
        #expect(fresh.exitCode == 1, "\(fresh.stderr)")
        #expect(fresh.stdout.contains("findings against the baseline: 1 new, 26 known, 0 fixed"))
        let newLines = fresh.stdout.split(separator: "\n").filter { $0.hasPrefix("      - ") && !$0.contains("(known") }
        #expect(newLines.count == 1 && newLines[0].contains("status: expected status 204, found 200"), "\(newLines)")

        // The server fixed: every entry is listed as fixed, and the run passes.
        let fixedServer = try await ExampleAPITests.RunningServer.started([])
        let fixed = try await verify(fixedServer, ["--baseline", path("baseline.json"), "--report", "json=\(path("fixed.json"))"])
        #expect(fixed.exitCode == 0)
        #expect(fixed.stdout.contains("findings against the baseline: 0 new, 0 known, 27 fixed"))
        #expect(fixed.stdout.split(separator: "\n").filter { $0.hasPrefix("fixed: products.") }.count == 27)
        // Updating the baseline from that run removes what was fixed.
        let updated = try await contract(["baseline", path("fixed.json"), "--out", path("baseline.json")])
        #expect(updated.stdout.contains("0 known findings (0 added, 0 kept, 27 removed as fixed)"), "\(updated.stdout)\(updated.stderr)")
    }

    @Test func aBrokenBaselineStopsTheRunBeforeAnyRequest() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"format": "contract-verify-baseline", "version": 1, "findings": [{"fingerprint": "XYZ", "case": "a/b"}]}"#
            .write(toFile: path("bad.json"), atomically: true, encoding: .utf8)
        let result = try await ContractBinary.run(
            ["verify", "--base-url", "http://127.0.0.1:1", "--baseline", path("bad.json"), "contracts"], in: ExampleAPITests.packageRoot)
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("bad.json:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("expected a fingerprint of 16 lowercase hex digits, found 'XYZ'"))
    }

    /// A contract removed or a case renamed leaves entries no run will meet again: every run, each
    /// shard included, lists them as fixed, and an update from its report drops them.
    @Test func anEntryOfACaseTheContractsNoLongerHaveIsFixed() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
            {
              "format": "contract-verify-baseline",
              "version": 1,
              "findings": [
                {"case":"products.archive/archived","fingerprint":"00000000000000aa","reason":"the old archive endpoint","rule":"status"}
              ]
            }
            """.write(toFile: path("baseline.json"), atomically: true, encoding: .utf8)
        let server = try await ExampleAPITests.RunningServer.started([])
        let shard = try await verify(server, ["--baseline", path("baseline.json"), "--shard", "3/4", "--report", "json=\(path("shard.json"))"])
        #expect(shard.exitCode == 0, "\(shard.stderr)")
        #expect(shard.stdout.contains("fixed: products.archive/archived #00000000000000aa"), "\(shard.stdout)")
        let updated = try await contract(["baseline", path("shard.json"), "--out", path("baseline.json")])
        #expect(updated.stdout.contains("0 known findings (0 added, 0 kept, 1 removed as fixed)"), "\(updated.stdout)\(updated.stderr)")
    }
}
