import ContractModel

/// The Markdown report, for a CI step summary or a pull-request comment: the totals, the gate, the
/// cases that need a look, and the whole case table of a tree small enough to read. Every text
/// from a file or a server is escaped for its place (``MarkdownText``).
enum CoverageMarkdown {
    static func render(_ result: CoverageResult, gate: CoverageGate) -> String {
        var lines = ["## Contract coverage", ""]
        if let gateLine = CoverageFormatting.gateLine(result, gate: gate) {
            lines += ["**\(result.gaps.isEmpty ? "✅" : "❌") \(MarkdownText.prose(gateLine))**", ""]
            // The gaps of a total have no list below.
            for gap in result.gaps where gap.subject == nil { lines += [MarkdownText.prose(gap.message), ""] }
        }
        lines += ["| | |", "|---|---|"]
        for (label, value) in CoverageFormatting.totals(result) {
            lines.append("| \(MarkdownText.tableCell(label)) | \(MarkdownText.tableCell(value)) |")
        }
        list("Cases the tests use that the server did not pass", CoverageFormatting.usedNotKept(result), into: &lines) { row in
            "\(MarkdownText.code(row.id)): \(MarkdownText.prose("\(CoverageGate.usedBy(row)), \(CoverageGate.why(row.verification))"))"
        }
        list("Cases whose requests broke their contract", CoverageFormatting.invalid(result), into: &lines) { row in
            let usage = row.usage ?? CaseCoverage.Usage()
            return "\(MarkdownText.code(row.id)): \(usage.invalid) request\(usage.invalid == 1 ? "" : "s")"
                + (usage.violations.first.map { ", " + MarkdownText.prose($0) } ?? "")
        }
        list("Requests no fixture matched", result.unmatched, into: &lines) { MarkdownText.prose(CoverageFormatting.unmatchedLine($0)) }
        list("Cases the usage names that the contracts no longer have", result.staleUsage.sorted { $0.key < $1.key }, into: &lines) {
            "\(MarkdownText.code($0.key)): \($0.value) request\($0.value == 1 ? "" : "s")"
        }
        list("Operations of the document no contract covers", CoverageFormatting.uncoveredOperations(result), into: &lines) {
            "\(MarkdownText.code($0.label)) (\(MarkdownText.prose("\($0.file):\($0.line)")))"
        }
        list("Responses of the document no case expects", CoverageFormatting.uncoveredResponses(result), into: &lines) {
            MarkdownText.code("\($0.operation.label) \($0.key)")
        }
        list("Contracts on no operation of the document", result.contractsOffDocument, into: &lines) { MarkdownText.code($0) }
        if !result.cases.isEmpty, result.cases.count <= CoverageFormatting.maxTableRows {
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
                var line = "| \(MarkdownText.tableCode(row.id)) | \(MarkdownText.tableCode("\(row.method) \(row.path)")) | \(MarkdownText.tableCell(row.status)) |"
                if result.sources.hasUsage { line += " \(MarkdownText.tableCell(CoverageFormatting.usage(row) ?? "")) |" }
                if result.sources.hasReport { line += " \(MarkdownText.tableCell(CoverageFormatting.verification(row) ?? "")) |" }
                lines.append(line)
            }
        } else if !result.cases.isEmpty {
            lines += ["", MarkdownText.prose("The table of all \(result.cases.count) cases is in the JSON and HTML reports.")]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func list<Item>(_ title: String, _ items: [Item], into lines: inout [String], line: (Item) -> String) {
        guard !items.isEmpty else { return }
        lines += ["", "### \(title) (\(items.count))", ""]
        for item in items.prefix(CoverageFormatting.maxListed) { lines.append("- " + line(item)) }
        if let more = CoverageFormatting.more(items.count, shown: CoverageFormatting.maxListed) { lines.append("- " + MarkdownText.prose(more)) }
    }
}
