import ContractModel

/// `--report markdown=PATH`: a pull-request comment. A heading with the verdict, the counts, a
/// table of the breaking changes and warnings, the fixtures they touch, the safe changes folded
/// in a `<details>` block, the ignored ones with their reasons, and the ignore entries no change
/// met.
///
/// GitHub refuses a comment over 65,536 characters, so each part has a budget in UTF-8 bytes
/// (never fewer than characters) and a number of rows, and a part cut short ends with a count of
/// the rest; the parts together stay under 60,000 bytes whatever the diff. Cells are clipped to
/// ``maxCell`` Unicode scalars. The JSON report has every change in full.
enum DiffMarkdownReport {
    static let maxCell = 200
    static let maxChangeRows = 200
    static let maxChangeBytes = 34_000
    static let maxFixtureBytes = 4_000
    static let maxSafeRows = 100
    static let maxSafeBytes = 10_000
    static let maxIgnoredRows = 100
    static let maxIgnoredBytes = 10_000
    static let maxUnusedBytes = 1_500

    static func render(_ result: DiffResult, failOn: Change.Severity) -> String {
        let ordered = DiffReport.bySeverity(result.changes)
        let shown = ordered.filter { $0.severity != .safe }
        let safe = ordered.filter { $0.severity == .safe }
        var text = "### \(verdict(result, failOn: failOn))\n\n"
        text += "`contract diff`: \(DiffReport.counts(result)) between \(code(result.old, inTable: false)) and \(code(result.new, inTable: false)).\n"
        if !shown.isEmpty {
            text += "\n| | Case | What | Old → New | Rule |\n|---|---|---|---|---|\n"
            text += fitted(DiffReport.grouped(shown), maxRows: maxChangeRows, maxBytes: maxChangeBytes, noun: "change", weight: \.count) { group in
                let change = group[0]
                return "| \(mark(change.severity)) | \(cases(group)) | \(plain(change.message)) | \(values(change)) | \(rule(change)) |\n"
            }
            text += fixtures(of: shown)
        }
        if !safe.isEmpty {
            text += "\n<details><summary>\(safe.count) safe change\(safe.count == 1 ? "" : "s")</summary>\n\n"
            text += "| Case | What | Rule |\n|---|---|---|\n"
            text += fitted(DiffReport.grouped(safe), maxRows: maxSafeRows, maxBytes: maxSafeBytes, noun: "safe change", weight: \.count) { group in
                "| \(cases(group)) | \(plain(group[0].message)) | \(rule(group[0])) |\n"
            }
            text += "\n</details>\n"
        }
        let ignored = DiffReport.ignored(result)
        if !ignored.isEmpty {
            // The severity as a word: a red mark would read as a failure, and these pass.
            text += "\n#### Ignored (\(ignored.count))\n\n| Severity | Case | What | Rule | Reason |\n|---|---|---|---|---|\n"
            text += fitted(ignored, maxRows: maxIgnoredRows, maxBytes: maxIgnoredBytes, noun: "ignored change") { entry in
                let change = entry.change
                return "| \(change.severity.rawValue) | \(code(change.name)) | \(plain(change.message)) | \(rule(change)) | \(plain(entry.reason)) |\n"
            }
        }
        let unused = result.unusedIgnores.sorted()
        if !unused.isEmpty {
            text += "\nIgnore entries no change met (they can go): "
            text += listed(unused.map { code($0, inTable: false) }, maxBytes: maxUnusedBytes) + "\n"
        }
        return text
    }

    /// The heading: red exactly when the exit code is 1.
    static func verdict(_ result: DiffResult, failOn: Change.Severity) -> String {
        let breaking = result.count(.breaking)
        if breaking > 0 { return "❌ \(breaking) breaking change\(breaking == 1 ? "" : "s")" }
        if result.exitCode(failOn: failOn) != 0 {
            let failing = result.changes.count { $0.severity <= failOn }
            let noun = failOn == .warning ? "warning" : "change"
            return "❌ \(failing) \(noun)\(failing == 1 ? "" : "s")"
        }
        let warnings = result.count(.warning)
        return warnings == 0 ? "✅ No breaking change" : "✅ No breaking change, \(warnings) warning\(warnings == 1 ? "" : "s")"
    }

    /// The case of a row, and how many more cases the same edit reaches (a shared schema changed
    /// once is one row, not one per case; the fingerprint shown is the first case's).
    private static func cases(_ group: [Change]) -> String {
        code(group[0].name) + (group.count > 1 ? " and \(group.count - 1) more case\(group.count == 2 ? "" : "s")" : "")
    }

    /// The rows that fit both budgets, in order, and a line counting the rest (`weight`: how
    /// many changes a row stands for).
    private static func fitted<Item>(
        _ items: [Item], maxRows: Int, maxBytes: Int, noun: String, weight: (Item) -> Int = { _ in 1 }, row: (Item) -> String
    ) -> String {
        var text = ""
        var bytes = 0
        var shownItems = 0
        for item in items.prefix(maxRows) {
            let line = row(item)
            guard bytes + line.utf8.count <= maxBytes else { break }
            text += line
            bytes += line.utf8.count
            shownItems += 1
        }
        let rest = items.dropFirst(shownItems).reduce(0) { $0 + weight($1) }
        if rest > 0 {
            text += "\n… and \(rest) more \(noun)\(rest == 1 ? "" : "s"): the JSON report (`--report json=PATH`) has every one.\n"
        }
        return text
    }

    /// The fixtures the listed changes touch: the app tests that read them see the changes.
    private static func fixtures(of changes: [Change]) -> String {
        let names = Set(changes.flatMap(\.fixtures)).sorted()
        guard !names.isEmpty else { return "" }
        return "\n**Fixtures affected** (app tests that use them see these changes): "
            + listed(names.map { code($0, inTable: false) }, maxBytes: maxFixtureBytes) + "\n"
    }

    /// `a, b, c`, as many as fit, then `and N more`.
    private static func listed(_ items: [String], maxBytes: Int) -> String {
        var shown: [String] = []
        var bytes = 0
        for item in items {
            guard bytes + item.utf8.count + 2 <= maxBytes else { break }
            shown.append(item)
            bytes += item.utf8.count + 2
        }
        let rest = items.count - shown.count
        return shown.joined(separator: ", ") + (rest > 0 ? "\(shown.isEmpty ? "" : ", and ")\(rest) more" : "") + "."
    }

    private static func mark(_ severity: Change.Severity) -> String {
        switch severity {
        case .breaking: "❌"
        case .warning: "⚠️"
        case .safe: "✅"
        }
    }

    /// `` `number` → `string` ``, a dash for a side without a value.
    private static func values(_ change: Change) -> String {
        let old = change.old?.value
        let new = change.new?.value
        guard old != nil || new != nil else { return "—" }
        // Half a cell each, so the two together are a cell's length.
        func shown(_ value: String?) -> String { value.map { code($0, maxLength: maxCell / 2) } ?? "—" }
        return "\(shown(old)) → \(shown(new))"
    }

    private static func rule(_ change: Change) -> String {
        "\(code(change.rule)) \(code("#" + change.fingerprint))"
    }

    /// Text from the contracts in a table cell: clipped, then escaped (`MarkdownText`), so it
    /// is one line and nothing Markdown or GitHub would read as markup.
    static func plain(_ text: String) -> String {
        MarkdownText.tableCell(DiffReport.clipped(text, to: maxCell))
    }

    /// Text from the contracts as a code span, which shows it as written (`MarkdownText`), in a
    /// table cell or in a line of prose; `(empty)` for no text.
    static func code(_ text: String, inTable: Bool = true, maxLength: Int = maxCell) -> String {
        guard !text.isEmpty else { return "(empty)" }
        let clipped = DiffReport.clipped(text, to: maxLength)
        return inTable ? MarkdownText.tableCode(clipped) : MarkdownText.code(clipped)
    }
}
