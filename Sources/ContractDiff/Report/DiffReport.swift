import ContractModel

/// The forms `contract diff` writes its result in: the console's text, and the files of
/// `--report KIND=PATH`.
public enum DiffReportKind: String, CaseIterable, Sendable {
    /// Compiler-style lines, for the console, editors and CI annotations.
    case text
    /// Every change in full, for tools (docs: "contract diff JSON report").
    case json
    /// A pull-request comment, under GitHub's limit whatever the size of the diff.
    case markdown
    /// CI test views: one suite per contract, one test per case.
    case junit
}

/// Renders a ``DiffResult``. Every form is a pure function of the result and `failOn`: the same
/// result gives the same bytes. Each prints only what the contracts say (values, files, names),
/// never a request or an environment variable, so no report can hold a secret.
public enum DiffReport {
    /// - Parameter failOn: the least severity that fails the run (`--fail-on`), for the exit
    ///   code, the verdict and which changes JUnit counts as failures.
    public static func render(_ result: DiffResult, as kind: DiffReportKind, failOn: Change.Severity) -> String {
        switch kind {
        case .text: DiffTextReport.render(result)
        case .json: DiffJSONReport.render(result, failOn: failOn)
        case .markdown: DiffMarkdownReport.render(result, failOn: failOn)
        case .junit: DiffJUnitReport.render(result, failOn: failOn)
        }
    }

    /// `3 breaking, 2 warnings, 4 safe (1 ignored)`: the same words in every form.
    /// Changes that are one edit seen from several cases (a shared schema changed once): the same
    /// rule, severity, message and places, grouped in the order they first come.
    static func grouped(_ changes: [Change]) -> [[Change]] {
        var groups: [[Change]] = []
        var index: [String: Int] = [:]
        for change in changes {
            let key = [change.rule, change.severity.rawValue, change.message, change.old?.location ?? "", change.new?.location ?? ""].joined(separator: "\u{0}")
            if let at = index[key] {
                groups[at].append(change)
            } else {
                index[key] = groups.count
                groups.append([change])
            }
        }
        return groups
    }

    static func counts(_ result: DiffResult) -> String {
        let warnings = result.count(.warning)
        return "\(result.count(.breaking)) breaking, \(warnings) warning\(warnings == 1 ? "" : "s"), \(result.count(.safe)) safe (\(result.ignored.count) ignored)"
    }

    /// The result's changes with every breaking one first, then the warnings, then the safe ones,
    /// each in the result's order: a reviewer reads what fails first, and a report cut short for
    /// its size loses safe changes before warnings and warnings before breaking ones.
    static func bySeverity(_ changes: [Change]) -> [Change] {
        Change.Severity.allCases.flatMap { severity in changes.filter { $0.severity == severity } }
    }

    /// The ignored changes in the result's order, whatever order they came in.
    static func ignored(_ result: DiffResult) -> [(change: Change, reason: String)] {
        result.ignored.sorted { a, b in
            if DiffResult.order(a.change, b.change) { return true }
            if DiffResult.order(b.change, a.change) { return false }
            return (a.change.message, a.reason) < (b.change.message, b.reason)
        }
    }

    /// Where a change is read: the new side, or the old side when the new tree no longer has
    /// it; the new tree's name when the change places neither side.
    static func place(of change: Change, in result: DiffResult) -> String {
        (change.new ?? change.old)?.location ?? result.new
    }

    /// Text from the contracts made safe to print on one line (``ShownText/oneLine(_:)``): a
    /// change is always one line and shows what the file holds.
    static func oneLine(_ text: String) -> String {
        ShownText.oneLine(text)
    }

    /// `text` cut after `maxLength` Unicode scalars, with `...` when something was cut: a value
    /// can be a whole schema. Scalars, not characters, since one character can be megabytes of
    /// combining marks.
    static func clipped(_ text: String, to maxLength: Int) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: maxLength, limitedBy: scalars.endIndex), cut != scalars.endIndex
        else { return text }
        return String(scalars[..<cut]) + "..."
    }
}
