import ContractHTTP
import Foundation
import Testing

@testable import ContractVerifier

/// Report files written as results arrive: the same bytes as a report rendered whole, the file
/// in place only once complete, and a Markdown summary that stays under GitHub's 1 MiB limit.
struct FileReporterTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-file-reporter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".partial") || $0.hasSuffix(".whole") }
    }

    /// Drives a reporter as a run does: started, one result at a time, completed.
    func run(_ reporter: FileReporter, _ report: VerifyReport) throws {
        try reporter.replay(report)
    }

    @Test(arguments: FileReporter.Kind.allCases)
    func aStreamedFileEqualsTheWholeReport(kind: FileReporter.Kind) throws {
        let report = ReportTests.report
        try run(FileReporter(kind: kind, path: folder.appendingPathComponent("r").path), report)
        let whole: String
        switch kind {
        case .json: whole = JSONReport.render(report)
        case .junit: whole = JUnitReport.render(report)
        case .markdown: whole = MarkdownReport.render(report)
        case .html: whole = HTMLReport.render(report)
        }
        #expect(try text("r") == whole)
        #expect(try leftovers().isEmpty)
    }

    @Test func theFileAppearsOnlyWhenTheRunCompletes() throws {
        let path = folder.appendingPathComponent("report.json")
        try Data("previous report\n".utf8).write(to: path)
        do {
            let reporter = FileReporter(kind: .json, path: path.path)
            // Alive until the checks of a run in progress are done: an optimised build may end an
            // object's lifetime right after its last use. It ends by the end of this scope, which
            // is how a run that never completes ends.
            try withExtendedLifetime(reporter) {
                try reporter.receive(.started(total: 5, baseURL: "http://127.0.0.1:PORT"))
                for (position, result) in ReportTests.report.results.prefix(3).enumerated() { try reporter.receive(.finished(result, position: position)) }
                #expect(try text("report.json") == "previous report\n", "a run in progress leaves the previous report alone")
                #expect(try leftovers().count == 1)
            }
        }
        #expect(try text("report.json") == "previous report\n", "a run that never completed changes nothing")
        #expect(try leftovers().isEmpty, "and leaves no partial file behind")
    }

    @Test func aReportGivenWholeIsWrittenWhole() throws {
        try FileReporter(kind: .junit, path: folder.appendingPathComponent("r.xml").path).write(ReportTests.report)
        #expect(try text("r.xml") == JUnitReport.render(ReportTests.report))
    }

    @Test func anUnwritableFolderIsAnErrorAtTheEnd() throws {
        let reporter = FileReporter(kind: .markdown, path: folder.appendingPathComponent("missing/r.md").path)
        #expect(throws: ReportWriteError.self) { try run(reporter, ReportTests.report) }
    }

    @Test func aLargeRunsMarkdownListsWhatDidNotPassAndStaysUnderOneMebibyte() throws {
        let failing = ReportTests.report.results[1]
        let results = (0..<20_000).map { index in
            var result = index % 100 == 7 ? failing : ReportTests.result("bulk", "case-\(index)", .passed)
            result.caseName = "case-\(index)"
            return result
        }
        let report = VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .seconds(3))
        try run(FileReporter(kind: .markdown, path: folder.appendingPathComponent("summary.md").path), report)
        let markdown = try text("summary.md")
        #expect(markdown.utf8.count < 1 << 20)
        #expect(markdown.contains("20000 cases: 19800 passed, 200 failed"))
        #expect(markdown.contains("The table lists only the cases that did not pass"))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| |") }
        #expect(rows.count == 200 && rows.allSatisfy { $0.hasPrefix("| ❌") })
        #expect(markdown.contains("19800 more cases not listed."))
        #expect(markdown.components(separatedBy: "\n#### ").count - 1 == MarkdownReport.maxDetailed)
        #expect(markdown.contains("… and 150 more cases that did not pass; the JSON report (`--report json=PATH`) has every one."))
    }

    @Test func aLargeRunThatPassedIsOnlyItsSummary() throws {
        let results = (0..<1_500).map { ReportTests.result("bulk", "case-\($0)", .passed) }
        let report = VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .seconds(1))
        try run(FileReporter(kind: .markdown, path: folder.appendingPathComponent("summary.md").path), report)
        #expect(try text("summary.md") == "## ✅ contract verify passed\n\n1500 cases: 1500 passed, 0 failed in 1.0 s, against `http://127.0.0.1:PORT`.\n")
    }

    @Test func hugeRequestsAndNamesStillFitTheSummaryLimit() throws {
        let body = String(repeating: "x", count: 25_000)
        let results = (0..<60).map { index in
            ReportTests.result(
                "bulk", "case-\(index)-" + String(repeating: "n", count: 5_000), .failed,
                findings: [Finding(kind: .status, message: "expected status 201, found 200 " + body)],
                request: DisplayedRequest(method: "POST", url: "http://127.0.0.1:PORT/" + body, headers: [], body: body))
        }
        let report = VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .seconds(1))
        try run(FileReporter(kind: .markdown, path: folder.appendingPathComponent("summary.md").path), report)
        let markdown = try text("summary.md")
        #expect(markdown.utf8.count < 1 << 20, "\(markdown.utf8.count) bytes")
        #expect(markdown.contains("more cases that did not pass; the JSON report"))
    }
}
