/// The console's view of a diff, compiler-style so editors and CI annotate it:
///
/// ```text
/// contracts/schemas/product.json:12:9: breaking: products.get/found: MESSAGE [response-type-changed] #5d1f0c2a9be3e871
///   was: main:contracts/schemas/product.json:12:9 (number)
///   now: contracts/schemas/product.json:12:9 (string)
///   fixtures: products.get/found.json
/// safe (1):
///   contracts/products/get.json:30:7: products.get/found: MESSAGE [response-property-added] #…
/// ignored (1):
///   contracts/…: breaking: products.get/found: MESSAGE [rule] #… (ignored: REASON)
/// unused ignore entries (1):
///   #00000000deadbeef
/// 1 breaking, 0 warnings, 1 safe (1 ignored) between main:contracts and contracts
/// ```
///
/// Breaking changes and warnings are printed in full, at the start of a line, so a problem
/// matcher anchored there sees them and nothing else; safe and ignored changes are one indented
/// line each under a heading. Plain text: no colours (the executable may add them), nothing a
/// terminal acts on, and every value one line (``DiffReport/oneLine(_:)``).
enum DiffTextReport {
    /// A value is shown up to this many Unicode scalars: the JSON report has it whole.
    static let maxValue = 200
    /// The fixtures named under a change; a shared schema can reach hundreds.
    static let maxFixtures = 10

    static func render(_ result: DiffResult) -> String {
        var lines: [String] = []
        let ordered = DiffReport.bySeverity(result.changes)
        for group in DiffReport.grouped(ordered.filter { $0.severity != .safe }) {
            lines += self.lines(for: group[0], in: result)
            if group.count > 1 { lines.append(alsoLine(group)) }
        }
        let safe = ordered.filter { $0.severity == .safe }
        if !safe.isEmpty {
            lines.append("safe (\(safe.count)):")
            for group in DiffReport.grouped(safe) {
                lines.append("  " + headline(of: group[0], in: result, showingSeverity: false))
                if group.count > 1 { lines.append("  " + alsoLine(group)) }
            }
        }
        let ignored = DiffReport.ignored(result)
        if !ignored.isEmpty {
            lines.append("ignored (\(ignored.count)):")
            lines += ignored.map { "  " + headline(of: $0.change, in: result) + " (ignored: \(DiffReport.oneLine($0.reason)))" }
        }
        let unused = result.unusedIgnores.sorted()
        if !unused.isEmpty {
            lines.append("unused ignore entr\(unused.count == 1 ? "y" : "ies") (\(unused.count)), no change has \(unused.count == 1 ? "its" : "their") fingerprint:")
            lines += unused.map { "  #" + DiffReport.oneLine($0) }
        }
        lines.append("\(DiffReport.counts(result)) between \(DiffReport.oneLine(result.old)) and \(DiffReport.oneLine(result.new))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A change in full: its headline, then where it was and is and the fixtures it touches.
    /// JUnit's failures say the same.
    static func lines(for change: Change, in result: DiffResult) -> [String] {
        var lines = [headline(of: change, in: result)]
        let place = DiffReport.place(of: change, in: result)
        if let old = change.old, let line = sideLine("was", old, besides: place) { lines.append(line) }
        if let new = change.new, let line = sideLine("now", new, besides: place) { lines.append(line) }
        if !change.fixtures.isEmpty {
            let shown = change.fixtures.prefix(maxFixtures).map(DiffReport.oneLine).joined(separator: ", ")
            let more = change.fixtures.count > maxFixtures ? ", and \(change.fixtures.count - maxFixtures) more" : ""
            lines.append("  fixtures: \(shown)\(more)")
        }
        return lines
    }

    /// `  also in 2 more cases: products.list/first-page #…, products.create/created #…`: a change
    /// to a shared schema is a change to every case that uses it, each with its fingerprint.
    private static func alsoLine(_ group: [Change]) -> String {
        let others = group.dropFirst()
        let shown = others.prefix(maxFixtures).map { "\(DiffReport.oneLine($0.name)) #\($0.fingerprint)" }.joined(separator: ", ")
        let more = others.count > maxFixtures ? ", and \(others.count - maxFixtures) more" : ""
        return "  also in \(others.count) more case\(others.count == 1 ? "" : "s"): \(shown)\(more)"
    }

    /// `PLACE: breaking: products.get/found: MESSAGE [rule] #fingerprint`; under the safe
    /// heading the severity goes without saying.
    static func headline(of change: Change, in result: DiffResult, showingSeverity: Bool = true) -> String {
        let severity = showingSeverity ? "\(change.severity.rawValue): " : ""
        return "\(DiffReport.oneLine(DiffReport.place(of: change, in: result))): \(severity)\(DiffReport.oneLine(change.name)): "
            + "\(DiffReport.oneLine(change.message)) [\(DiffReport.oneLine(change.rule))] #\(change.fingerprint)"
    }

    /// `  was: FILE:LINE:COLUMN (VALUE)`, when it says more than the headline: the side has a
    /// value, is somewhere else, or has no line and so is placed by its pointer.
    private static func sideLine(_ label: String, _ side: Change.Side, besides place: String) -> String? {
        let placedByPointer = side.line == nil && !side.pointer.isEmpty
        guard side.value != nil || side.location != place || placedByPointer else { return nil }
        var line = "  \(label): \(DiffReport.oneLine(side.location))"
        if placedByPointer { line += " at \(DiffReport.oneLine(side.pointer))" }
        if let value = side.value { line += " (\(DiffReport.oneLine(DiffReport.clipped(value, to: maxValue))))" }
        return line
    }
}
