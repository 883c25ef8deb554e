import ContractHTTP
import ContractJSON
import Foundation
import Testing

@testable import ContractVerifier

/// A JSON report read back holds everything the run's other reports show, so `contract merge`
/// writes them as the run did; and shards that are not the parts of one run are refused.
struct ShardReportTests {
    static let run = RunIdentity(tree: String(repeating: "a", count: 64), plan: String(repeating: "b", count: 64), cases: 6,
        baseline: String(repeating: "c", count: 64), failOn: .new, shard: nil)

    /// Every kind of outcome, and every finding field: the hand-made run of the golden files,
    /// with a baseline (known with a reason, expired, new), a subject, a schema excerpt and a
    /// fixed entry.
    static func report(shard: Shard? = nil, only positions: Set<Int>? = nil) -> VerifyReport {
        var results = ReportTests.report.results
        let entry = Baseline.Entry(fingerprint: "0", caseName: "", reason: "tracked in API-42 <b>", expires: "2027-01-31")
        results[1].findings[0].baseline = .known(entry)
        results[1].findings[0].schemaExcerpt = #"{"type":"number","minimum":0}"#
        results[1].findings[1].subject = "location"
        results[1].findings[1].rule = "header.present"
        results[2].findings[0].baseline = .expired(Baseline.Entry(fingerprint: "0", caseName: "", expires: "2026-01-01"))
        results.append(ReportTests.result("products.update", "renamed", .passed, status: 204))
        results = results.enumerated().map { index, result in
            var result = result
            result.position = index
            return result
        }
        var summary = VerifySummary(baseURL: ReportTests.report.baseURL, results: results.filter { positions?.contains($0.position ?? -1) ?? true }, duration: .milliseconds(987))
        var run = Self.run
        run.shard = shard
        summary.run = run
        summary.hasBaseline = true
        summary.fixed = positions?.contains(5) == false ? [] : [Baseline.Entry(fingerprint: "0123456789abcdef", caseName: "products.update/renamed", rule: "status")]
        return VerifyReport(summary: summary, results: results.filter { positions?.contains($0.position ?? -1) ?? true })
    }

    func read(_ report: VerifyReport, file: String = "r.json") throws -> ShardReport {
        try ShardReport.read(Array(JSONReport.render(report).utf8), file: file).get()
    }

    @Test func aReportReadBackWritesEveryReportAsTheRunDid() throws {
        let original = Self.report()
        let back = try read(original)
        let again = VerifyReport(summary: try ShardMerge.merge([back]).get().summary, results: back.results)
        #expect(JSONReport.render(again) == JSONReport.render(original))
        #expect(JUnitReport.render(again) == JUnitReport.render(original))
        #expect(MarkdownReport.render(again) == MarkdownReport.render(original))
        #expect(HTMLReport.render(again) == HTMLReport.render(original))
        #expect(JSONReport.render(original).contains("tracked in API-42"), "the reason travels with the finding")
        #expect(again.summary.exitCode == original.summary.exitCode)
    }

    @Test func shardsMergeIntoTheWholeRun() throws {
        let parts: [Set<Int>] = [[0, 3], [1, 5], [2, 4]]
        let shards = try parts.enumerated().map { index, positions in
            try read(Self.report(shard: Shard(index: index + 1, count: 3), only: positions), file: "s\(index + 1).json")
        }
        let merged = try ShardMerge.merge(shards.reversed()).get()
        #expect(merged.results.map(\.position) == Array(0..<6))
        // Each part took 987 ms beside the others: so did the whole run.
        #expect(JSONReport.render(merged) == JSONReport.render(Self.report()))
        #expect(merged.summary.fixed.map(\.fingerprint) == ["0123456789abcdef"])
    }

    @Test func partsOfAnotherRunAreRefused() throws {
        func shard(_ index: Int, _ change: (inout VerifyReport) -> Void = { _ in }) throws -> ShardReport {
            var report = Self.report(shard: Shard(index: index, count: 3), only: [[0, 3], [1, 5], [2, 4]][index - 1])
            change(&report)
            return try read(report, file: "s\(index).json")
        }
        func refusal(_ shards: [ShardReport]) -> [String] {
            guard case .failure(let error) = ShardMerge.merge(shards) else { return [] }
            return error.diagnostics.map(\.rendered)
        }
        #expect(try refusal([shard(1), shard(3)]) == ["error: shard 2/3 is missing: the run was split in 3, and only 2 reports were given"])
        #expect(try refusal([shard(1), shard(2), shard(2), shard(3)]) == ["s2.json: error: is shard 2/3 again, as 's2.json' is: give each shard's report once"])
        let otherTree = try shard(2) { $0.summary.run?.tree = String(repeating: "d", count: 64) }
        #expect(try refusal([shard(1), otherTree, shard(3)]).first?.hasPrefix("s2.json: error: is from another contracts tree than 's1.json' (tree dddddddddddd, not aaaaaaaaaaaa)") == true)
        let otherServer = try shard(3) { $0.summary.baseURL = "https://staging.example.com" }
        #expect(try refusal([shard(1), shard(2), otherServer]) == ["s3.json: error: ran against 'https://staging.example.com', 's1.json' against 'http://127.0.0.1:PORT'"])
        let otherBaseline = try shard(3) { $0.summary.run?.baseline = nil }
        #expect(try refusal([shard(1), shard(2), otherBaseline]).first?.contains("ran with another baseline") == true)
        let cutShort = try shard(3) { $0.results.removeLast() }
        #expect(try refusal([shard(1), shard(2), cutShort]) == ["error: the reports hold 5 of the run's 6 cases: a report was cut short or edited"])
    }

    @Test func everyProblemInAReportIsPlaced() throws {
        var text = JSONReport.render(Self.report())
        text = text.replacingOccurrences(of: #""outcome": "failed""#, with: #""outcome": "drifted""#)
        text = text.replacingOccurrences(of: #""attempts": 3"#, with: #""attempts": "3""#)
        guard case .failure(let error) = ShardReport.read(Array(text.utf8), file: "r.json") else {
            Issue.record("a broken report was read")
            return
        }
        let printed = error.diagnostics.map(\.rendered)
        #expect(printed.contains { $0.hasPrefix("r.json:") && $0.contains("expected passed, failed or error, found 'drifted'") && $0.contains("/cases/1/outcome") }, "\(printed)")
        #expect(printed.contains { $0.contains("expected a whole number from 0 to 1,000,000 (attempts), found '3'") && $0.contains("/cases/4/attempts") }, "\(printed)")
        guard case .failure(let old) = ShardReport.read(Array(#"{"format": "contract-verify-report", "version": 1, "cases": []}"#.utf8), file: "old.json") else {
            Issue.record("a report without 'run' was read")
            return
        }
        #expect(old.diagnostics.map(\.rendered) == ["old.json:1:1: error: the report does not say which run it is part of ('run'): it was written by an older contract; run verify again to merge it"])
    }

    /// A key repeated in one object: this reader kept the last value where another tool keeps
    /// the first, so `"outcome": "error", "outcome": "passed"` read as passed with no word.
    @Test func aKeyRepeatedInAnObjectIsRefusedAndPlaced() throws {
        let text = JSONReport.render(Self.report())
        let repeated = text.replacingOccurrences(of: #""outcome": "failed""#, with: #""outcome": "error", "outc\u006Fme": "failed""#)
        #expect(repeated != text)
        guard case .failure(let error) = ShardReport.read(Array(repeated.utf8), file: "r.json") else {
            Issue.record("a report with a repeated key was read")
            return
        }
        let printed = error.diagnostics.map(\.rendered)
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("r.json:") == true, "\(printed)")
        #expect(printed.first?.contains("error: key 'outcome' is repeated [/cases/1/outcome]") == true, "\(printed)")
        // The report as written reads.
        #expect(throws: Never.self) { try ShardReport.read(Array(text.utf8), file: "r.json").get() }
    }
}
