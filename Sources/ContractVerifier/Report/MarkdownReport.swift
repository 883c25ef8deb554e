import ContractModel

/// `--report markdown=PATH`: a summary a person reads in a pull request or a job summary
/// (`$GITHUB_STEP_SUMMARY`): a table of the cases, then the details of each failure.
///
/// GitHub refuses a job summary over 1 MiB, so a large run stays well under it: above
/// ``maxRows`` cases the table lists only the cases that did not pass; a cell is clipped to
/// ``maxCell`` characters and a detail line to ``maxLine``; the details stop after ``maxDetailed``
/// cases or ``maxDetailBytes`` bytes (the JSON report has every one). Only those results are kept
/// in memory.
///
/// GitHub renders the HTML inside Markdown, and a merged run's results come from files anyone
/// could have edited: every text a case brings (name, request line, outcome, file, details, a
/// baseline's entries) goes through `MarkdownText` for the place it stands in, and the base URL too.
struct MarkdownReport: ReportFormat {
    static let maxRows = 1000
    static let maxDetailed = 50
    static let maxCell = 200
    static let maxLine = 500
    static let maxDetailBytes = 300_000

    private var listsPassing = true
    private var rows = 0
    private var unlisted = 0
    private var detailed: [CaseResult] = []
    private var notDetailed = 0
    /// `case: message` of each teardown step that failed (what may be left on the server).
    private var teardownNotes: [String] = []
    private var teardownNotesLeft = 0

    mutating func opening(baseURL: String, total: Int) -> String {
        listsPassing = total <= Self.maxRows
        return ""
    }

    mutating func adding(_ result: CaseResult) -> String {
        for finding in result.teardown {
            if teardownNotes.count < Self.maxDetailed {
                teardownNotes.append("- \(MarkdownText.code(Self.clipped(result.name))): \(MarkdownText.prose(Self.clipped(finding.message)))")
            } else {
                teardownNotesLeft += 1
            }
        }
        if result.outcome != .passed {
            if detailed.count < Self.maxDetailed { detailed.append(result) } else { notDetailed += 1 }
        }
        guard rows < Self.maxRows, result.outcome != .passed || listsPassing else {
            unlisted += 1
            return ""
        }
        rows += 1
        let mark: String
        switch result.outcome.base {
        case .passed: mark = "✅"
        case .failed: mark = "❌"
        case .error: mark = "⚠️"
        }
        let name = MarkdownText.tableCode(Self.clipped(result.name))
        let request = MarkdownText.tableCode(Self.clipped(ReportFormatting.requestLine(result.request)))
        return "| \(mark) | \(name) | \(request) | \(MarkdownText.tableCell(Self.clipped(ReportFormatting.outcomeLine(result)))) |\n"
    }

    /// What happened, in the heading: a run that reached no server found no drift.
    static func verdict(_ report: VerifySummary) -> String {
        if report.exitCode == 0 { return "✅ contract verify passed" }
        if report.exitCode == 3 { return "❌ contract verify reached no server" }
        if report.failed == 0 { return "❌ contract verify got no response for \(report.errors) case\(report.errors == 1 ? "" : "s")" }
        return "❌ contract verify found drift"
    }

    func closing(_ report: VerifySummary) -> (header: String, trailer: String) {
        let verdict = Self.verdict(report)
        var header = "## \(verdict)\n\n\(ReportFormatting.summary(report)), against \(MarkdownText.code(report.baseURL)).\n"
        // A large run where every case passed needs no table at all.
        if listsPassing || rows > 0 {
            if !listsPassing {
                header += "\nThe table lists only the cases that did not pass: the run has more than \(Self.maxRows) cases.\n"
            }
            header += "\n| | Case | Request | Response |\n|---|---|---|---|\n"
        }
        var trailer = ""
        if !teardownNotes.isEmpty {
            trailer += "\n### Teardown steps that failed (not counted as drift: what they should have removed may be left on the server)\n\n"
            trailer += teardownNotes.joined(separator: "\n") + "\n"
            if teardownNotesLeft > 0 { trailer += "- and \(teardownNotesLeft) more\n" }
        }
        if unlisted > 0, rows > 0 {
            trailer += "\n\(unlisted) more case\(unlisted == 1 ? "" : "s") not listed.\n"
        }
        if !detailed.isEmpty {
            trailer += "\n### What differs\n"
            var notDetailed = notDetailed
            for (position, result) in detailed.enumerated() {
                guard trailer.utf8.count < Self.maxDetailBytes else {
                    notDetailed += detailed.count - position
                    break
                }
                trailer += "\n#### \(MarkdownText.code(result.name)) (\(MarkdownText.heading(Self.clipped(result.file))))\n\n"
                trailer += MarkdownText.codeBlock(ReportFormatting.details(result).map { ResponseChecker.clip($0, to: Self.maxLine) }, info: "text")
            }
            if notDetailed > 0 {
                trailer += "\n… and \(notDetailed) more case\(notDetailed == 1 ? "" : "s") that did not pass; the JSON report (`--report json=PATH`) has every one.\n"
            }
        }
        if !report.fixed.isEmpty {
            trailer += "\n### Fixed since the baseline\n\n"
            trailer += report.fixed.prefix(Self.maxRows).map { "- \(MarkdownText.code(ReportFormatting.fixedLine($0)))\n" }.joined()
            if report.fixed.count > Self.maxRows { trailer += "- … and \(report.fixed.count - Self.maxRows) more\n" }
        }
        return (header, trailer)
    }

    /// A cell's or a heading's text, clipped before `MarkdownText` escapes it.
    private static func clipped(_ text: String) -> String {
        ResponseChecker.clip(text, to: maxCell)
    }
}
