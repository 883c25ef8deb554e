import ContractModel

/// The Markdown report, for a CI step summary or a pull-request comment: the totals, the gate, the
/// cases that need a look, and the whole case table of a tree small enough to read. Every text
/// from a file or a server is escaped for its place (``MarkdownText``), after it is clipped to
/// ``maxText`` characters in a code span or a cell and ``maxSentence`` elsewhere; the whole report stays under ``maxBytes`` (GitHub refuses a step
/// summary over 1 MiB), leaving out the case table first, then the last lines of the lists.
enum CoverageMarkdown {
    /// Characters of one text from a file, a test or a server (a case id, a cell, a request).
    static let maxText = 200
    /// Characters of a sentence made of several such texts (the tests using a case and the
    /// finding it failed with).
    static let maxSentence = 1_000
    /// The report's size at most: under GitHub's 1 MiB for a step summary.
    static let maxBytes = 1_000_000

    /// - Parameter limit: ``maxBytes``; smaller in tests.
    static func render(_ result: CoverageResult, gate: CoverageGate, limit: Int = maxBytes) -> String {
        let whole = render(result, gate: gate, withTable: true)
        guard whole.utf8.count > limit else { return whole }
        var lines = render(result, gate: gate, withTable: false).split(separator: "\n", omittingEmptySubsequences: false)
        let note = MarkdownText.prose("… cut to stay under \(limit / 1000) KB: the JSON and HTML reports have everything.")
        var size = lines.reduce(0) { $0 + $1.utf8.count + 1 } + note.utf8.count + 2
        // Each line closes what it opens (a list item, a code span), so a cut between lines is safe.
        while size > limit, let last = lines.popLast() { size -= last.utf8.count + 1 }
        return (lines.map(String.init) + ["", note]).joined(separator: "\n") + "\n"
    }

    private static func render(_ result: CoverageResult, gate: CoverageGate, withTable: Bool) -> String {
        var lines = ["## Contract coverage", ""]
        if let gateLine = CoverageFormatting.gateLine(result, gate: gate) {
            // The tool's own sentences, whole; every text they could quote is in the lists below.
            lines += ["**\(result.gaps.isEmpty ? "✅" : "❌") \(MarkdownText.prose(gateLine))**", ""]
            // The gaps of a total have no list below.
            for gap in result.gaps where gap.subject == nil { lines += [MarkdownText.prose(gap.message), ""] }
        }
        lines += ["| | |", "|---|---|"]
        for (label, value) in CoverageFormatting.totals(result) {
            lines.append("| \(tableCell(label)) | \(tableCell(value)) |")
        }
        list("Cases the tests use that the server did not pass", CoverageFormatting.usedNotKept(result), into: &lines) { row in
            "\(code(row.id)): \(prose("\(CoverageGate.usedBy(row)), \(CoverageGate.why(row.verification))"))"
        }
        list("Cases whose requests broke their contract", CoverageFormatting.invalid(result), into: &lines) { row in
            let usage = row.usage ?? CaseCoverage.Usage()
            return "\(code(row.id)): \(usage.invalid) request\(usage.invalid == 1 ? "" : "s")"
                + (usage.violations.first.map { ", " + prose($0) } ?? "")
        }
        list("Requests no fixture matched", result.unmatched, into: &lines) { prose(CoverageFormatting.unmatchedLine($0)) }
        list("Cases the usage names that the contracts no longer have", result.staleUsage.sorted { $0.key < $1.key }, into: &lines) {
            "\(code($0.key)): \($0.value) request\($0.value == 1 ? "" : "s")"
        }
        list("Operations of the document no contract covers", CoverageFormatting.uncoveredOperations(result), into: &lines) {
            "\(code($0.label)) (\(prose("\($0.file):\($0.line)")))"
        }
        list("Responses of the document no case expects", CoverageFormatting.uncoveredResponses(result), into: &lines) {
            code("\($0.operation.label) \($0.key)")
        }
        list("Contracts on no operation of the document", result.contractsOffDocument, into: &lines) { code($0) }
        if withTable, !result.cases.isEmpty, result.cases.count <= CoverageFormatting.maxTableRows {
            lines += ["", "### Cases", ""]
            var header = "| case | request | expects |"
            var rule = "|---|---|---|"
            if result.sources.hasUsage {
                header += " tests use it |"
                rule += "---|"
            }
            if result.sources.hasReport {
                header += " server |"
                rule += "---|"
            }
            lines += [header, rule]
            for row in result.cases {
                var line = "| \(tableCode(row.id)) | \(tableCode("\(row.method) \(row.path)")) | \(tableCell(row.status)) |"
                if result.sources.hasUsage { line += " \(tableCell(CoverageFormatting.usage(row) ?? "")) |" }
                if result.sources.hasReport { line += " \(tableCell(CoverageFormatting.verification(row) ?? "")) |" }
                lines.append(line)
            }
        } else if !result.cases.isEmpty {
            lines += ["", prose("The table of all \(result.cases.count) cases is in the JSON and HTML reports.")]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func list<Item>(_ title: String, _ items: [Item], into lines: inout [String], line: (Item) -> String) {
        guard !items.isEmpty else { return }
        lines += ["", "### \(title) (\(items.count))", ""]
        for item in items.prefix(CoverageFormatting.maxListed) { lines.append("- " + line(item)) }
        if let more = CoverageFormatting.more(items.count, shown: CoverageFormatting.maxListed) { lines.append("- " + prose(more)) }
    }

    // Each text clipped before it is escaped for its place: a code span or a cell to `maxText`
    // characters, other text (a sentence, a finding, a request) to `maxSentence`.
    private static func prose(_ text: String) -> String { MarkdownText.prose(clipped(text, to: maxSentence)) }
    private static func code(_ text: String) -> String { MarkdownText.code(clipped(text)) }
    private static func tableCell(_ text: String) -> String { MarkdownText.tableCell(clipped(text)) }
    private static func tableCode(_ text: String) -> String { MarkdownText.tableCode(clipped(text)) }

    static func clipped(_ text: String, to length: Int = maxText) -> String {
        text.count > length ? String(text.prefix(length)) + "…" : text
    }
}
