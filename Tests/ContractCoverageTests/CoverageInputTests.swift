@testable import ContractCoverage
import ContractModel
import ContractRequests
import Foundation
import TestSupport
import Testing

/// What `contract coverage` reads is hostile until bounded: folders, usage files, reports and
/// arguments that cannot be used stop it with a clear error (exit 2) naming the file, line,
/// column and pointer; what it shows from them cannot move a terminal or become markup.
@Suite(.serialized)
struct CoverageInputTests {
    static func run(_ fixture: CoverageFixture, _ change: (inout CoverageArguments) -> Void) -> CommandResult<CoverageResult> {
        var arguments = CoverageArguments(directory: "contracts", workingDirectory: fixture.folder.path)
        change(&arguments)
        return CoverageRun.run(arguments)
    }

    static func write(_ text: String, to path: String, in fixture: CoverageFixture) throws {
        let url = fixture.folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let header = String(decoding: UsageLog.headerLine(recorder: "ContractTesting", process: 1), as: UTF8.self)

    static func line(_ record: UsageRecord) -> String { String(decoding: UsageLog.line(record), as: UTF8.self) }

    @Test func aFolderThatIsMissingOrHoldsNoUsageFileStopsTheRun() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let missing = Self.run(fixture) { $0.usageFolders = ["nowhere"] }
        #expect(missing.exitCode == 2)
        #expect(missing.diagnostics.map(\.message) == ["--usage: cannot read the folder '\(fixture.folder.path)/nowhere': no such folder"])
        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try Self.write("not usage", to: "empty/notes.txt", in: fixture)
        let empty = Self.run(fixture) { $0.usageFolders = ["empty"] }
        #expect(empty.exitCode == 2)
        #expect(empty.diagnostics.first?.message.contains("has no usage files (usage-*.jsonl): run the tests with CONTRACT_USAGE_DIR=") == true)
    }

    @Test func aBrokenLineIsNamedByFileLineColumnAndPointer() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let good = Self.line(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "t", method: "GET", path: "/pets/1"))
        try Self.write(Self.header + good + #"{"outcome":"answered","method":"GET","path":"/pets/1","contract":"pets.get","case":7}"# + "\n", to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.exitCode == 2)
        let problem = try #require(result.diagnostics.first)
        #expect(problem.file?.hasSuffix("usage/usage-1-a.jsonl") == true)
        #expect(problem.location?.line == 3)
        #expect(problem.location?.column == 84)
        #expect(problem.pointer?.description == "/case")
        #expect(problem.message == "expected a string, found integer")
        #expect(result.consequence == "nothing was written")
    }

    @Test func aLastLineCutShortIsSaidAndTheRestCounted() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let good = Self.line(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "t", method: "GET", path: "/pets/1"))
        try Self.write(Self.header + good + String(good.prefix(20)), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.exitCode == 0)
        #expect(result.summary?.cases.first { $0.id == "pets.get/found" }?.usage?.requests == 1)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.first?.message.contains("the last line is incomplete") == true)
        #expect(result.diagnostics.first?.location?.line == 3)
    }

    @Test func aLinkInTheFolderIsNeverFollowed() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let good = Self.line(UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: "t", method: "GET", path: "/pets/1"))
        try Self.write(Self.header + good, to: "usage/usage-1-a.jsonl", in: fixture)
        try Self.write(Self.header + good + good, to: "elsewhere/usage-2-b.jsonl", in: fixture)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.appendingPathComponent("usage/usage-2-b.jsonl").path,
            withDestinationPath: fixture.folder.appendingPathComponent("elsewhere/usage-2-b.jsonl").path)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.exitCode == 0)
        #expect(result.summary?.sources.usageFiles == 1)
        #expect(result.summary?.cases.first { $0.id == "pets.get/found" }?.usage?.requests == 1)
        #expect(result.diagnostics.map(\.message) == ["not a regular file (a link or a folder), so not read"])
    }

    @Test func whatTheUsageShowsCannotMoveTheTerminalOrBecomeMarkup() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let test = "evil\u{1B}]52;c;aGk=\u{07}<script>alert(1)</script>|![x](http://x)"
        let records = [
            UsageRecord(contract: "pets.get", caseName: "found", outcome: .answered, test: test, method: "GET", path: "/pets/1"),
            UsageRecord(contract: nil, caseName: nil, outcome: .unmatched, test: test, method: "GET", path: "/<b>\u{1B}[2J", nearest: "pets.get/found", reason: "**x**"),
        ]
        try Self.write(Self.header + records.map(Self.line).joined(), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.reports = ["markdown=c.md", "html=c.html"]
        }
        #expect(result.exitCode == 0)
        #expect(!result.output.contains("\u{1B}"))
        #expect(result.output.contains("\\u{1B}"))
        let markdown = try String(contentsOf: fixture.folder.appendingPathComponent("c.md"), encoding: .utf8)
        let html = try String(contentsOf: fixture.folder.appendingPathComponent("c.html"), encoding: .utf8)
        #expect(!markdown.contains("<script>") && !markdown.contains("![x]") && !markdown.contains("\u{1B}"))
        #expect(!html.contains("<script>") && !html.contains("<b>"))
        #expect(html.contains("&lt;script&gt;"))
    }

    @Test func aFolderNamedWithATrailingSlashShowsItsFilesUnderTheName() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        var arguments = CoverageArguments(directory: "contracts/", workingDirectory: fixture.folder.path)
        arguments.gate = CoverageGate()
        let result = CoverageRun.run(arguments)
        #expect(result.summary?.cases.first { $0.id == "pets.get/found" }?.file == "contracts/pets/get.json")
    }

    @Test func aCaseTheContractsNoLongerHaveIsListedAsStale() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let records = [UsageRecord(contract: "pets.old", caseName: "gone", outcome: .answered, test: "t", method: "GET", path: "/old")]
        try Self.write(Self.header + records.map(Self.line).joined(), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) { $0.usageFolders = ["usage"] }
        #expect(result.summary?.staleUsage == ["pets.old/gone": 1])
        #expect(result.output.contains("Cases the usage names that the contracts no longer have (run 'contract fixtures' again) (1):\n  pets.old/gone: 1 request"))
    }

    @Test(arguments: [
        ([CoverageFailOn.usedUnverified], false, false, "--fail-on used-unverified needs --usage and --verify-report"),
        ([.invalidRequests], false, false, "--fail-on invalid-requests needs --usage"),
        ([.uncoveredOperations], true, true, "--fail-on uncovered-operations needs --openapi"),
        ([.uncoveredResponses], true, true, "--fail-on uncovered-responses needs --openapi"),
    ])
    func aGateWithoutWhatItNeedsIsRefused(failOn: [CoverageFailOn], usage: Bool, report: Bool, message: String) throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let result = Self.run(fixture) {
            $0.gate = CoverageGate(failOn: Set(failOn))
            if usage { $0.usageFolders = ["usage"] }
            if report { $0.verifyReports = ["verify.json"] }
        }
        #expect(result.exitCode == 2)
        #expect(result.refusedArguments)
        #expect(result.diagnostics.map(\.message) == [message])
    }

    @Test(arguments: [(-1, "--min-used must be a percentage from 0 to 100, found -1"), (101, "--min-used must be a percentage from 0 to 100, found 101")])
    func aMinimumShareOutOfRangeIsRefused(minimum: Int, message: String) throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let result = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.gate = CoverageGate(minimumUsedPercent: minimum)
        }
        #expect(result.exitCode == 2)
        #expect(result.diagnostics.map(\.message) == [message])
    }

    @Test func theMinimumShareFailsTheRunUnderItAndNotAtIt() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try fixture.writeUsage(in: "usage")
        // 4 of the 6 cases are used: 66.7%.
        let at = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.gate = CoverageGate(minimumUsedPercent: 66)
        }
        #expect(at.exitCode == 0)
        let under = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.gate = CoverageGate(minimumUsedPercent: 67)
        }
        #expect(under.exitCode == 1)
        #expect(under.summary?.gaps.map(\.message) == ["the tests use 4 of 6 cases (66%), under --min-used 67%"])
    }

    @Test func twoWholeRunsAreNotMergedIntoOne() async throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try await fixture.verify(drifting: false, report: "a.json")
        try await fixture.verify(drifting: true, report: "b.json")
        let result = Self.run(fixture) { $0.verifyReports = ["a.json", "b.json"] }
        #expect(result.exitCode == 2)
        #expect(result.diagnostics.contains { $0.message.contains("is a whole run, not a shard") })
    }

    @Test func aReportOfOlderContractsIsMatchedByIdWithAWarning() async throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try await fixture.verify(drifting: false, report: "verify.json")
        try Self.write(#"{"id": "health.get", "request": {"method": "GET", "path": "/health"}, "cases": [{"name": "ok", "response": {"status": 204}}]}"#, to: "contracts/health.json", in: fixture)
        let result = Self.run(fixture) { $0.verifyReports = ["verify.json"] }
        #expect(result.exitCode == 0)
        #expect(result.summary?.cases.allSatisfy { $0.verification == .passed } == true)
        #expect(result.diagnostics.map(\.severity) == [.warning])
        #expect(result.diagnostics.first?.message.hasPrefix("the report is of another version of the contracts") == true)
    }

    /// The join sums usage as it reads it: four times the tests cost about four times the work.
    @Test func usageFromFourTimesTheTestsCostsAboutFourTimesTheWork() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        let cases = ["pets.get/found", "pets.get/missing", "pets.list/ok", "pets.create/created", "health.get/ok"]
        func usage(_ tests: Int) -> String {
            var text = Self.header
            for test in 0..<tests {
                let id = cases[test % cases.count].split(separator: "/")
                text += Self.line(UsageRecord(
                    contract: String(id[0]), caseName: String(id[1]), outcome: .answered, test: "Suite\(test % 97)/test\(test)()", method: "GET", path: "/x"))
            }
            return text
        }
        try Self.write(usage(2_000), to: "small/usage-1-a.jsonl", in: fixture)
        try Self.write(usage(8_000), to: "large/usage-1-a.jsonl", in: fixture)
        // Read on this thread, where its CPU time is measured: a run reads the usage on another
        // while the contracts load, and this thread's time would be the load's alone.
        let growth = Growth.cpuRatio(size: 1, factor: 4) { scale in
            let read = UsageFolders.read([fixture.folder.appendingPathComponent(scale == 1 ? "small" : "large").path])
            #expect((try? read.get())?.tally.requests == (scale == 1 ? 2_000 : 8_000))
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the usage cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }
}
