/// The parts of the page around the cases: its head, the summary, the filters, the table's head
/// and rows, the footer.
extension HTMLReport {
    /// A table cell is cut here (with an ellipsis in CSS before that), so a huge URL costs a row
    /// no more than a short one does.
    static let maxCell = 200

    /// The verdict in the Markdown report's words, without its mark: here the heading's colour
    /// and the page's band say it, and no emoji font is needed.
    static func verdictWords(_ report: VerifySummary) -> String {
        let verdict = MarkdownReport.verdict(report)
        guard let space = verdict.firstIndex(of: " ") else { return verdict }
        return String(verdict[verdict.index(after: space)...])
    }

    static func page(_ report: VerifySummary) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(HTMLStyle.contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="contract verify">
        <title>\(HTMLText.escape(verdictWords(report))): \(HTMLText.count(report.total, "case"))</title>
        <style>\(HTMLStyle.stylesheet)</style>
        </head>
        <body class="\(report.hasBaseline ? "with-baseline" : "without-baseline")">

        """
    }

    static func summary(_ report: VerifySummary) -> String {
        let state = report.exitCode == 0 ? "passed" : "failed"
        var html = "<header class=\"summary \(state)\">\n"
        html += "<p class=\"tool\">contract verify report</p>\n"
        html += "<h1>\(HTMLText.escape(verdictWords(report)))</h1>\n"
        html += "<p class=\"intro\">Each case sent its request to <code>\(HTMLText.escape(report.baseURL))</code> and compared the response with its contract: "
        html += "a case <em>failed</em> when the response differs, and got <em>no response</em> when the request failed before one came back.</p>\n"
        html += "<dl class=\"tiles\">\n"
        html += tile("passed", "Passed", report.passed)
        html += tile("failed", "Failed", report.failed)
        html += tile("error", "No response", report.errors)
        if report.hasBaseline {
            html += tile("new", "New findings", report.newFindings, hint: "not in the baseline")
            html += tile("known", "Known findings", report.knownFindings, hint: "in the baseline")
            html += tile("fixed", "Fixed", report.fixed.count, hint: "baseline entries no finding met")
        } else {
            html += tile("new", "Findings", report.newFindings)
        }
        html += "</dl>\n"
        html += "<p class=\"meta\">\(HTMLText.count(report.total, "case")) in \(ReportFormatting.duration(report.duration))"
        html += " · server <code>\(HTMLText.escape(report.baseURL))</code> · exit code \(report.exitCode)</p>\n"
        html += fixedList(report.fixed)
        return html + "</header>\n"
    }

    private static func tile(_ kind: String, _ label: String, _ count: Int, hint: String? = nil) -> String {
        let hint = hint.map { " <small>\(HTMLText.escape($0))</small>" } ?? ""
        return "<div class=\"tile \(kind)\(count == 0 ? " zero" : "")\"><dt>\(label)\(hint)</dt><dd>\(HTMLText.number(count))</dd></div>\n"
    }

    /// Baseline entries no finding met: drift that was fixed, so the entries can go.
    private static func fixedList(_ fixed: [Baseline.Entry]) -> String {
        guard !fixed.isEmpty else { return "" }
        var html = "<section class=\"fixed\">\n<h2>Fixed since the baseline</h2>\n"
        html += "<p>No finding met these baseline entries in this run: the drift they describe is gone, and <code>contract baseline</code> drops them when it next writes the file.</p>\n<ul>\n"
        for entry in fixed.prefix(maxRows) {
            html += "<li><code>\(HTMLText.escape(entry.caseName))</code>"
            if let rule = entry.rule { html += " <code>\(HTMLText.escape(rule))</code>" }
            if let place = entry.place { html += " at <code>\(HTMLText.escape(place))</code>" }
            html += " <span class=\"fingerprint\">#\(HTMLText.escape(entry.fingerprint))</span></li>\n"
        }
        if fixed.count > maxRows { html += "<li>… and \(HTMLText.number(fixed.count - maxRows)) more</li>\n" }
        return html + "</ul>\n</section>\n"
    }

    /// The filter buttons. The radio inputs come before `<main>`, as its siblings, so that the
    /// stylesheet's `#show-…:checked ~ main` rules can hide the cases a filter leaves out.
    static func filters(_ report: VerifySummary, newDriftCases: Int, knownDriftCases: Int) -> String {
        let counts: [HTMLStyle.Filter: Int] = [
            .all: report.total, .notPassed: report.failed + report.errors, .failed: report.failed, .error: report.errors,
            .passed: report.passed, .new: newDriftCases, .known: knownDriftCases,
        ]
        let shown = HTMLStyle.Filter.allCases.filter { report.hasBaseline || !$0.needsBaseline }
        var inputs = ""
        var labels = ""
        for filter in shown {
            let count = counts[filter] ?? 0
            inputs += "<input type=\"radio\" name=\"show\" class=\"filter\" id=\"\(filter.id)\"\(filter == .all ? " checked" : "")>\n"
            labels += "<label for=\"\(filter.id)\"\(count == 0 ? " class=\"zero\"" : "")>\(filter.label) <span class=\"count\">\(HTMLText.number(count))</span></label>\n"
        }
        return inputs + "<nav class=\"filters\" aria-label=\"Which cases to show\">\n<span class=\"show\">Show</span>\n" + labels + "</nav>\n"
    }

    /// Rows per block of the table. Each block is a table of its own with the same fixed column
    /// widths, so the columns line up, and a `content-visibility: auto` box the browser skips
    /// while it is off screen.
    static let rowsPerBlock = 200

    private static let columns = #"<colgroup><col class="outcome"><col class="name"><col class="request"><col class="response"><col class="time"></colgroup>"#

    static let tableHead = """
        <div class="rows">
        <table>
        \(columns)
        <thead><tr><th>Outcome</th><th>Case</th><th>Request</th><th>Response</th><th class="time">Time</th></tr></thead>
        <tbody>

        """

    static let nextBlock = """
        </tbody>
        </table>
        </div>
        <div class="rows">
        <table>
        \(columns)
        <tbody>

        """

    /// One row: a few hundred bytes, no per-row style or script, a link to the case's details
    /// when it has them.
    static func row(_ result: CaseResult, classes: String, link: String?) -> String {
        let name = HTMLText.clipped(result.name, to: maxCell)
        let named = link.map { "<a href=\"#\($0)\">\(name)</a>" } ?? name
        return "<tr class=\"\(classes)\"><td class=\"outcome\">\(outcomeLabel(result.outcome))</td><td>\(named)</td>"
            + "<td class=\"request\">\(HTMLText.clipped(ReportFormatting.requestLine(result.request), to: maxCell))</td>"
            + "<td>\(HTMLText.clipped(responseCell(result), to: maxCell))</td>"
            + "<td class=\"time\">\(ReportFormatting.duration(result.duration))</td></tr>\n"
    }

    /// The status, or why none came: the outcome cell already says "no response".
    private static func responseCell(_ result: CaseResult) -> String {
        guard result.response == nil, let error = result.transportError else { return ReportFormatting.outcomeLine(result) }
        return error.kind.rawValue
    }

    static func outcomeLabel(_ outcome: CaseResult.Outcome) -> String {
        switch outcome.base {
        case .passed: "passed"
        case .failed: "failed"
        case .error: "no response"
        }
    }

    static let footer = """
        <footer>Written by <code>contract verify</code>. The JSON report (<code>--report json=PATH</code>) has every case in full; \
        docs/verify-report.md explains the rules and fingerprints.</footer>

        """
}
