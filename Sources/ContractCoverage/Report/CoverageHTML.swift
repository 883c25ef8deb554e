import ContractModel

/// The HTML report: one self-contained page (no script, no outside resource) with the totals, the
/// gate, and every table whole: cases, requests no fixture matched, the document's operations.
/// Every text is escaped (``MarkupText``), its controls shown as escapes (``ShownText``).
enum CoverageHTML {
    static func render(_ result: CoverageResult, gate: CoverageGate) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Contract coverage</title>
            <style>
            body { font: 14px/1.45 -apple-system, system-ui, sans-serif; margin: 2em; color: #1f2328; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
            th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
            th { background: #f6f8fa; }
            code { font: 12px ui-monospace, monospace; }
            tr.bad td { background: #ffebe9; }
            tr.unused td { color: #656d76; }
            .gate-failed { color: #cf222e; font-weight: bold; }
            .gate-passed { color: #1a7f37; font-weight: bold; }
            </style>
            </head>
            <body>
            <h1>Contract coverage</h1>

            """
        if let line = CoverageFormatting.gateLine(result, gate: gate) {
            html += "<p class=\"\(result.gaps.isEmpty ? "gate-passed" : "gate-failed")\">\(text(line))</p>\n"
        }
        html += "<table>\n"
        for (label, value) in CoverageFormatting.totals(result) { html += "<tr><th>\(text(label))</th><td>\(text(value))</td></tr>\n" }
        html += "</table>\n"
        if !result.gaps.isEmpty {
            html += "<h2>Gaps (\(result.gaps.count))</h2>\n<ul>\n"
            for gap in result.gaps { html += "<li><code>\(text(gap.rule))</code> \(text(gap.description))</li>\n" }
            html += "</ul>\n"
        }
        html += casesTable(result)
        if !result.unmatched.isEmpty {
            html += "<h2>Requests no fixture matched (\(result.unmatched.count))</h2>\n<table>\n<tr><th>request</th><th>requests</th><th>nearest</th><th>tests</th></tr>\n"
            for group in result.unmatched {
                html += "<tr class=\"\(group.unexpected > 0 ? "bad" : "")\"><td><code>\(text("\(group.method) \(group.path)"))</code></td><td>\(group.requests)\(group.relaxed > 0 ? " (\(group.relaxed) let through)" : "")</td>"
                html += "<td>\(text([group.nearest, group.reason].compactMap { $0 }.joined(separator: ": ")))</td><td>\(text(group.tests.joined(separator: ", ")))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if !result.staleUsage.isEmpty {
            html += "<h2>Cases the usage names that the contracts no longer have</h2>\n<ul>\n"
            for (id, count) in result.staleUsage.sorted(by: { $0.key < $1.key }) { html += "<li><code>\(text(id))</code>: \(count)</li>\n" }
            html += "</ul>\n"
        }
        if let operations = result.operations {
            html += "<h2>Operations of \(text(result.sources.document ?? "the document")) (\(operations.count))</h2>\n<table>\n<tr><th>operation</th><th>contracts</th><th>responses</th></tr>\n"
            for operation in operations {
                let responses = operation.responses.map { response in
                    response.isCovered ? text(response.key) : "<strong>\(text(response.key)) (no case)</strong>"
                }
                html += "<tr class=\"\(operation.isCovered ? "" : "bad")\"><td><code>\(text(operation.label))</code></td>"
                html += "<td>\(operation.isCovered ? text(operation.contracts.joined(separator: ", ")) : "none")</td><td>\(responses.joined(separator: ", "))</td></tr>\n"
            }
            html += "</table>\n"
            if !result.contractsOffDocument.isEmpty {
                html += "<h2>Contracts on no operation of the document (\(result.contractsOffDocument.count))</h2>\n<ul>\n"
                for id in result.contractsOffDocument { html += "<li><code>\(text(id))</code></li>\n" }
                html += "</ul>\n"
            }
        }
        return html + "</body>\n</html>\n"
    }

    private static func casesTable(_ result: CoverageResult) -> String {
        guard !result.cases.isEmpty else { return "" }
        var html = "<h2>Cases (\(result.cases.count))</h2>\n<table>\n<tr><th>case</th><th>request</th><th>expects</th>"
        if result.sources.hasUsage { html += "<th>tests use it</th><th>tests</th>" }
        if result.sources.hasReport { html += "<th>server</th>" }
        html += "</tr>\n"
        for row in result.cases {
            let bad = (row.isUsed && result.sources.hasReport && !row.passedVerification) || (row.usage?.invalid ?? 0) > 0
            let unused = result.sources.hasUsage && !row.isUsed
            html += "<tr class=\"\(bad ? "bad" : unused ? "unused" : "")\"><td><code>\(text(row.id))</code></td>"
            html += "<td><code>\(text("\(row.method) \(row.path)"))</code></td><td>\(text(row.status))</td>"
            if let usage = row.usage {
                html += "<td>\(text(CoverageFormatting.usage(row) ?? ""))</td><td>\(text(usage.tests.joined(separator: ", ")))</td>"
            }
            if row.verification != nil {
                var cell = text(CoverageFormatting.verification(row) ?? "")
                if case .failed(let findings)? = row.verification, findings.count > 1 {
                    cell = "FAILED<ul>" + findings.map { "<li>\(text($0))</li>" }.joined() + "</ul>"
                }
                html += "<td>\(cell)</td>"
            }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }

    /// Shown on one line as the console and the Markdown show it (``ShownText``): a browser
    /// reorders text after a bidirectional override as a terminal does, so a test name or a path
    /// could read as something other than what it holds.
    private static func text(_ value: String) -> String {
        MarkupText.escaped(ShownText.oneLine(value), for: .html, inAttribute: false)
    }
}
