import ContractModel

/// The console report: the totals, the lists that need a look, and the case table of a tree small
/// enough to read whole. Every text that came from a file is shown on one line, escaped
/// (``ShownText``), so a test name or a server's message cannot move the terminal.
enum CoverageText {
    static func render(_ result: CoverageResult, gate: CoverageGate) -> String {
        var lines = ["contract coverage"]
        let totals = CoverageFormatting.totals(result)
        let width = totals.map(\.label.count).max() ?? 0
        for (label, value) in totals {
            lines.append("  \(pad(label, to: width))  \(shown(value))")
        }
        if result.cases.count <= CoverageFormatting.maxTableRows { lines += table(result) }
        let notKept = CoverageFormatting.usedNotKept(result)
        section("Cases the tests use that the server did not pass", notKept, into: &lines) { row in
            "\(row.id): \(CoverageGate.usedBy(row)), \(CoverageGate.why(row.verification))"
        }
        section("Cases whose requests broke their contract", CoverageFormatting.invalid(result), into: &lines) { row in
            let usage = row.usage ?? CaseCoverage.Usage()
            return "\(row.id): \(usage.invalid) request\(usage.invalid == 1 ? "" : "s")" + (usage.violations.first.map { ", \($0)" } ?? "")
                + (usage.violations.count > 1 ? " (+\(usage.violations.count - 1) other ways)" : "")
        }
        section("Requests no fixture matched", result.unmatched, into: &lines, line: CoverageFormatting.unmatchedLine)
        section("Cases the usage names that the contracts no longer have (run 'contract fixtures' again)", result.staleUsage.sorted { $0.key < $1.key }, into: &lines) {
            "\($0.key): \($0.value) request\($0.value == 1 ? "" : "s")"
        }
        section("Operations of the document no contract covers", CoverageFormatting.uncoveredOperations(result), into: &lines) {
            "\($0.label) (\($0.file):\($0.line))"
        }
        section("Responses of the document no case expects", CoverageFormatting.uncoveredResponses(result), into: &lines) {
            "\($0.operation.label) \($0.key)"
        }
        section("Contracts on no operation of the document", result.contractsOffDocument, into: &lines) { $0 }
        if let line = CoverageFormatting.gateLine(result, gate: gate) {
            lines.append("")
            lines.append(shown(line))
            // The gaps of a total have no list above.
            for gap in result.gaps where gap.subject == nil { lines.append("  " + shown(gap.message)) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ result: CoverageResult) -> [String] {
        guard !result.cases.isEmpty else { return [] }
        let showsUsage = result.sources.hasUsage
        let showsServer = result.sources.hasReport
        // Columns as wide as their widest cell, to a bound: a longer cell pushes its row's next one.
        let width = min(60, result.cases.map(\.id.count).max() ?? 0)
        let statusWidth = min(24, result.cases.map { $0.method.count + 1 + $0.status.count }.max() ?? 0)
        let usageWidth = min(48, result.cases.map { (CoverageFormatting.usage($0) ?? "").count }.max() ?? 0)
        var lines = ["", "Cases"]
        for row in result.cases {
            var line = "  " + pad(shown(row.id), to: width)
            line += "  " + pad("\(row.method) \(row.status)", to: statusWidth)
            if showsUsage { line += "  " + pad(CoverageFormatting.usage(row) ?? "", to: usageWidth) }
            if showsServer { line += "  " + shown(CoverageFormatting.verification(row) ?? "") }
            lines.append(String(line.reversed().drop(while: { $0 == " " }).reversed()))
        }
        return lines
    }

    private static func section<Item>(_ title: String, _ items: [Item], into lines: inout [String], line: (Item) -> String) {
        guard !items.isEmpty else { return }
        lines.append("")
        lines.append("\(title) (\(items.count)):")
        for item in items.prefix(CoverageFormatting.maxListed) { lines.append("  " + shown(line(item))) }
        if let more = CoverageFormatting.more(items.count, shown: CoverageFormatting.maxListed) { lines.append("  " + more) }
    }

    /// `text` with spaces to `width` characters; a longer text is kept whole.
    private static func pad(_ text: String, to width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func shown(_ text: String) -> String {
        ShownText.oneLine(text)
    }
}
