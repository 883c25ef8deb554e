@testable import ContractCoverage
import ContractModel
import ContractRequests
import Foundation
import TestSupport
import Testing

/// Inputs built to hurt `contract coverage`: sizes that would make its work grow faster than
/// what it reads, reports that would overwrite what it reads, and texts a page would act on.
@Suite(.serialized)
struct CoverageHostileTests {
    static func run(_ fixture: CoverageFixture, _ change: (inout CoverageArguments) -> Void) -> CommandResult<CoverageResult> {
        CoverageInputTests.run(fixture, change)
    }

    static func line(_ record: UsageRecord) -> String { CoverageInputTests.line(record) }

    /// A case every test of a large suite goes through (a login, a health check) is named by each
    /// of them, as is a path no fixture matches: adding the n-th test must not copy the n - 1
    /// before it.
    @Test func aCaseUsedByEveryTestOfALargeSuiteCostsLinearWork() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        func usage(_ tests: Int) -> String {
            var text = CoverageInputTests.header
            for test in 0..<tests {
                text += Self.line(UsageRecord(
                    contract: "health.get", caseName: "ok", outcome: .answered, test: "AppTests/testNumber\(test)WithAFairlyLongName()", method: "GET",
                    path: "/health"))
                text += Self.line(UsageRecord(
                    contract: nil, caseName: nil, outcome: .unmatched, test: "AppTests/testNumber\(test)WithAFairlyLongName()", method: "GET", path: "/healht"))
            }
            return text
        }
        try CoverageInputTests.write(usage(4_000), to: "small/usage-1-a.jsonl", in: fixture)
        try CoverageInputTests.write(usage(16_000), to: "large/usage-1-a.jsonl", in: fixture)
        // Read on this thread, where its CPU time is measured (a run reads usage on another).
        let growth = Growth.cpuRatio(size: 1, factor: 4) { scale in
            let read = UsageFolders.read([fixture.folder.appendingPathComponent(scale == 1 ? "small" : "large").path])
            let tally = try? read.get().tally
            #expect(tally?.byCase["health.get/ok"]?.tests.count == (scale == 1 ? 4_000 : 16_000))
            #expect(tally?.unmatched.first?.value.tests.count == (scale == 1 ? 4_000 : 16_000))
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the tests of one case cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    /// The most memory this process has held since ``resetPeakMemory()``, in bytes (Linux's
    /// `VmHWM`), or nil where it cannot be told.
    static func peakMemory() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// Lets `VmHWM` start again from what the process holds now (`/proc/self/clear_refs`).
    static func resetPeakMemory() -> Bool {
        FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs")
            && (try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))) != nil
    }

    /// A usage file of many short lines (8 MiB of empty ones) is summed as it is read: its lines
    /// are never all held at once, each costing many times its one byte.
    @Test func aUsageFileOfManyShortLinesIsReadInLittleMoreMemoryThanItsBytes() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        var bytes = Array(CoverageInputTests.header.utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "\n"), count: 8 << 20)
        bytes += Array(Self.line(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "t", method: "GET", path: "/pets/1")).utf8)
        let url = fixture.folder.appendingPathComponent("usage/usage-1-a.jsonl")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        bytes = []
        guard Self.resetPeakMemory(), let before = Self.peakMemory() else { return }
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        let grown = (Self.peakMemory() ?? 0) - before
        #expect(result.exitCode == 0)
        #expect(result.summary?.cases.first { $0.id == "pets.get/found" }?.usage?.requests == 1)
        // The file's 8 MiB, read whole, and room for the contracts and the tests running beside.
        #expect(grown < 96 << 20, "reading 8 MiB of short lines took \(grown >> 20) MiB")
    }

    /// `--report json=verify.json` beside `--verify-report verify.json` would write the coverage
    /// over last night's verify report; a report over a usage file or the document, the same.
    @Test func aReportIsNeverWrittenOverAnInput() async throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try await fixture.verify(drifting: false, report: "verify.json")
        try fixture.writeUsage(in: "usage")
        try CoverageInputTests.write("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n", to: "openapi.yaml", in: fixture)
        let usageFile = try #require(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.appendingPathComponent("usage").path).sorted().first)
        let inputs = ["verify.json", "usage/\(usageFile)", "openapi.yaml", "./usage/../verify.json"]
        var before: [String: Data] = [:]
        for input in inputs { before[input] = try Data(contentsOf: fixture.folder.appendingPathComponent(input)) }
        for (kind, input) in [("json", "verify.json"), ("markdown", "usage/\(usageFile)"), ("html", "openapi.yaml"), ("json", "./usage/../verify.json")] {
            let result = Self.run(fixture) {
                $0.usageFolders = ["usage"]
                $0.verifyReports = ["verify.json"]
                $0.openAPIDocument = "openapi.yaml"
                $0.reports = ["\(kind)=\(input)"]
            }
            #expect(result.exitCode == 2, "\(kind)=\(input)")
            #expect(result.refusedArguments)
            #expect(result.diagnostics.first?.message.contains("is an input of this run") == true, "\(result.diagnostics.map(\.message))")
            for input in inputs { #expect(try Data(contentsOf: fixture.folder.appendingPathComponent(input)) == before[input], "\(input)") }
        }
    }

    /// A browser reorders text after a bidirectional override as a terminal does: the page shows
    /// such a character as an escape, as the console and the Markdown do, so a test name or a path
    /// reads as what it holds.
    @Test func theHTMLShowsBidirectionalControlsAsEscapes() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let test = "LoginTests/testAdmin\u{202E}nimda\u{2066}"
        let records = [
            UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: test, method: "GET", path: "/pets/1"),
            UsageRecord(contract: nil, caseName: nil, outcome: .unmatched, test: test, method: "GET", path: "/pets/\u{202E}1\u{85}", reason: "x\u{2028}y"),
        ]
        try CoverageInputTests.write(CoverageInputTests.header + records.map(Self.line).joined(), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.reports = ["html=c.html"]
        }
        #expect(result.exitCode == 0)
        let html = try String(contentsOf: fixture.folder.appendingPathComponent("c.html"), encoding: .utf8)
        for scalar in ["\u{202E}", "\u{2066}", "\u{85}", "\u{2028}"] { #expect(!html.contains(scalar), "\(scalar.unicodeScalars.first!.value)") }
        #expect(html.contains("testAdmin\\u{202E}nimda\\u{2066}"))
    }

    /// Groups of unmatched requests on one method and path, told apart by their nearest fixture,
    /// come in one order every run: the reports of two runs of the same usage are the same.
    @Test func unmatchedGroupsOfOnePathAreOrderedByTheirNearestFixture() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let nearest = (0..<20).map { "pets.get/case\($0 + 10)" }
        let records = nearest.map {
            UsageRecord(contract: nil, caseName: nil, outcome: .unmatched, test: "t", method: "GET", path: "/pet/1", nearest: $0, reason: "r")
        }
        try CoverageInputTests.write(CoverageInputTests.header + records.map(Self.line).joined(), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.summary?.unmatched.map(\.nearest) == nearest)
    }

    /// More reports than a run has shards cannot be the shards of one run: none is read (each can
    /// be a gibibyte), as `contract merge` refuses them.
    @Test func moreReportsThanARunHasShardsAreRefusedBeforeAnyIsRead() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let result = Self.run(fixture) { $0.verifyReports = (0...1_000).map { "shard-\($0).json" } }
        #expect(result.exitCode == 2)
        #expect(result.diagnostics.map(\.message) == ["expected the reports of at most 1000 shards (the most verify splits a run in), found 1001 files"])
    }

    /// What the warnings and errors quote from a usage file or a report is printed on standard
    /// error, to the terminal: a key or a case name there cannot hold a control character.
    @Test func theDiagnosticsQuoteNoControlCharacterFromTheInputs() async throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let key = #"\u001b]52;c;aGk=\u0007"#
        try CoverageInputTests.write(
            CoverageInputTests.header + #"{"outcome":"unmatched","method":"GET","path":"/x","\#(key)":1,"\#(key)":2}"# + "\n", to: "usage/usage-1-a.jsonl",
            in: fixture)
        let usage = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(usage.exitCode == 2)
        #expect(usage.diagnostics.count == 1)
        #expect(!usage.diagnostics.contains { $0.rendered.contains("\u{1B}") || $0.rendered.contains("\u{07}") }, "\(usage.diagnostics.map(\.rendered))")
        try await fixture.verify(drifting: false, report: "verify.json")
        let report = fixture.folder.appendingPathComponent("verify.json")
        let text = try String(contentsOf: report, encoding: .utf8).replacingOccurrences(
            of: #""contract"\s*:\s*"health.get""#, with: #""contract": "gone\\u001b[2J\\u202e""#, options: .regularExpression)
        try Data(text.utf8).write(to: report)
        let verified = Self.run(fixture) { $0.verifyReports = ["verify.json"] }
        #expect(verified.exitCode == 0)
        let warning = try #require(verified.diagnostics.first { $0.message.contains("no longer have") })
        #expect(!warning.rendered.contains("\u{1B}") && !warning.rendered.contains("\u{202E}"), "\(warning.rendered)")
    }

    /// A usage folder named by a file's path is said to be one, not said to be missing.
    @Test func aUsageFolderThatIsAFileIsSaidToBeOne() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try CoverageInputTests.write("x", to: "usage", in: fixture)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.exitCode == 2)
        #expect(result.diagnostics.map(\.message) == ["--usage: cannot read the folder '\(fixture.folder.path)/usage': not a folder"])
    }

    /// Usage that names more distinct cases than any tree has (a file written over by something
    /// else) is bounded: cases past the bound are counted, not kept, and the run says so.
    @Test func casesPastTheBoundAreCountedNotKept() {
        var tally = UsageTally(maxCases: 3)
        for index in 0..<10 {
            tally.add(UsageRecord(contract: "c\(index)", caseName: "k", outcome: .answered, test: "t", method: "GET", path: "/x"))
        }
        tally.add(UsageRecord(contract: "c0", caseName: "k", outcome: .answered, test: "t", method: "GET", path: "/x"))
        #expect(tally.byCase.count == 3)
        #expect(tally.byCase["c0/k"]?.requests == 2)
        #expect(tally.casesBeyondLimit == 7)
        #expect(tally.requests == 11)
    }
}
