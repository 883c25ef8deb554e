@testable import ContractCoverage
import ContractModel
import ContractRequests
import Foundation
import TestSupport
import Testing

/// What an attack review of `contract coverage` found: inputs read twice, reports written over
/// what the run reads, a method no contract can express counted as a gap, and a Markdown report
/// that grew past what a step summary takes.
@Suite(.serialized)
struct CoverageInputAttackTests {
    static func run(_ fixture: CoverageFixture, _ change: (inout CoverageArguments) -> Void) -> CommandResult<CoverageResult> {
        CoverageInputTests.run(fixture, change)
    }

    @Test func aUsageFolderGivenTwiceOrAHardLinkIsCountedOnce() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try fixture.writeUsage(in: "usage")
        let once = Self.run(fixture) { $0.usageFolders = ["usage"] }
        let requests = try #require(once.summary?.sources.requests)
        #expect(requests > 0)

        let twice = Self.run(fixture) { $0.usageFolders = ["usage", "./usage/"] }
        #expect(twice.exitCode == 0)
        #expect(twice.summary?.sources.requests == requests)
        #expect(twice.summary?.cases == once.summary?.cases)
        #expect(twice.diagnostics.map(\.message) == ["the same folder as one given before, so not read again"])

        // A second folder holding a hard link to a file of the first.
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.appendingPathComponent("usage").path).sorted().first)
        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("linked"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(
            atPath: fixture.folder.appendingPathComponent("usage/\(first)").path, toPath: fixture.folder.appendingPathComponent("linked/\(first)").path)
        let linked = Self.run(fixture) { $0.usageFolders = ["usage", "linked"] }
        #expect(linked.summary?.sources.requests == requests)
        #expect(linked.diagnostics.map(\.message) == ["the same file as one read before (a hard link), so not counted again"])
    }

    @Test func aReportIsNeverWrittenIntoTheTreeOrOverAFileTheDocumentRefersTo() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try CoverageInputTests.write(
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /health:\n    $ref: paths.yaml\n", to: "api/openapi.yaml", in: fixture)
        try CoverageInputTests.write("get:\n  responses:\n    '200': {description: ok}\n", to: "api/paths.yaml", in: fixture)
        let tree = fixture.folder.appendingPathComponent("contracts")
        let treeFiles = try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.hasSuffix(".json") }.sorted()
        let before = try treeFiles.map { try Data(contentsOf: tree.appendingPathComponent($0)) }
        let referred = try Data(contentsOf: fixture.folder.appendingPathComponent("api/paths.yaml"))

        for (report, message) in [
            ("html=contracts/health.json", "is a JSON file in the contracts folder 'contracts', which this run reads"),
            ("json=contracts/pets/new.json", "is a JSON file in the contracts folder 'contracts', which this run reads"),
            ("markdown=api/paths.yaml", "is a file the document 'api/openapi.yaml' refers to (--openapi)"),
        ] {
            let result = Self.run(fixture) {
                $0.openAPIDocument = "api/openapi.yaml"
                $0.reports = [report]
            }
            #expect(result.exitCode == 2, "\(report)")
            #expect(result.diagnostics.contains { $0.message.contains(message) }, "\(report): \(result.diagnostics.map(\.message))")
        }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: tree.path).filter { $0.hasSuffix(".json") }.sorted() == treeFiles)
        // A report of another kind of file may go there: the loader reads `*.json` only.
        #expect(Self.run(fixture) { $0.reports = ["markdown=contracts/coverage.md"] }.exitCode == 0)
        #expect(try treeFiles.map { try Data(contentsOf: tree.appendingPathComponent($0)) } == before)
        #expect(try Data(contentsOf: fixture.folder.appendingPathComponent("api/paths.yaml")) == referred)
    }

    @Test func traceIsSaidOnceAndNeverAGap() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        try CoverageInputTests.write(
            "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /health:\n    get:\n      responses: {'200': {description: ok}}\n    trace:\n      responses: {'200': {description: ok}}\n",
            to: "openapi.yaml", in: fixture)
        let result = Self.run(fixture) {
            $0.openAPIDocument = "openapi.yaml"
            $0.gate.failOn = [.uncoveredOperations]
        }
        #expect(result.exitCode == 0, "\(result.diagnostics.map(\.message))")
        #expect(result.summary?.operations?.map(\.label) == ["GET /health"])
        #expect(result.diagnostics.map(\.message) == ["TRACE /health: a contract cannot express TRACE (the import skips it), so it is not counted"])
    }

    @Test func theMarkdownStaysUnderWhatAStepSummaryTakes() throws {
        let fixture = try CoverageFixture()
        defer { fixture.remove() }
        // Unmatched requests with long paths and reasons, from tests with long names.
        let long = String(repeating: "ab<cd>&", count: 2_000)
        let records = (0..<400).map { index in
            UsageRecord(
                contract: nil, caseName: nil, outcome: .unmatched, test: "Tests/test\(index)\(long)", method: "GET", path: "/nowhere/\(index)/\(long)",
                reason: long)
        }
        try CoverageInputTests.write(
            CoverageInputTests.header + records.map(CoverageInputTests.line).joined(), to: "usage/usage-1-a.jsonl", in: fixture)
        let result = Self.run(fixture) {
            $0.usageFolders = ["usage"]
            $0.reports = ["markdown=c.md"]
        }
        #expect(result.exitCode == 0, "\(result.diagnostics.map(\.message))")
        let markdown = try Data(contentsOf: fixture.folder.appendingPathComponent("c.md"))
        #expect(markdown.count < CoverageMarkdown.maxBytes)
        let text = String(decoding: markdown, as: UTF8.self)
        #expect(text.contains("### Requests no fixture matched (400)"))
        // Each text clipped: no line holds a whole long value.
        #expect(text.split(separator: "\n").allSatisfy { $0.utf8.count < 3 * CoverageMarkdown.maxSentence * 6 })
        #expect(!text.contains(String(long.prefix(CoverageMarkdown.maxSentence + 7))))
    }

    @Test func aMarkdownReportPastItsBoundIsCutBetweenLinesAndSaysSo() {
        var result = CoverageResult(contractsDirectory: "contracts", sources: CoverageResult.Sources(), cases: [], operations: nil)
        result.staleUsage = Dictionary(uniqueKeysWithValues: (0..<50).map { ("c\($0)/" + String(repeating: "x", count: 190), $0) })
        let whole = CoverageMarkdown.render(result, gate: CoverageGate())
        #expect(!whole.contains("cut to stay under"))
        let limit = whole.utf8.count / 2
        let cut = CoverageMarkdown.render(result, gate: CoverageGate(), limit: limit)
        #expect(cut.utf8.count <= limit)
        #expect(cut.hasSuffix("\n… cut to stay under \(limit / 1000) KB: the JSON and HTML reports have everything.\n"))
        // Whole lines of the report, from its start: nothing is cut inside a line.
        let kept = cut.split(separator: "\n", omittingEmptySubsequences: false).dropLast(3)
        #expect(kept.count > 10)
        #expect(Array(whole.split(separator: "\n", omittingEmptySubsequences: false).prefix(kept.count)) == Array(kept))
    }
}
