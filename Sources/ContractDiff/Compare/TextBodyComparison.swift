import ContractModel

extension TemplateString {
    /// The text, when it holds no placeholder.
    var literalText: String? {
        var text = ""
        for segment in segments {
            guard case .literal(let literal) = segment else { return nil }
            text += literal
        }
        return text
    }
}

/// A text body's conditions, OLD against NEW, as the response side reads them: a condition taken
/// out or relaxed lets the server send text clients were not told of.
enum TextBodyComparison {
    static func findings(_ before: TextConditions, _ after: TextConditions, old: Change.Side, new: Change.Side) -> [CaseFinding] {
        var findings: [CaseFinding] = []
        func add(_ rule: ContractRule, _ message: String) {
            findings.append(CaseFinding(rule, subject: "response body", "response body: \(message)", old: old, new: new))
        }
        if before.equals != after.equals {
            add(after.equals == nil ? .textWidened : before.equals == nil ? .textNarrowed : .textChanged,
                "equals \(before.equals.map { "'\($0)'" } ?? "none") to \(after.equals.map { "'\($0)'" } ?? "none")")
        }
        if before.sha256 != after.sha256 {
            add(after.sha256 == nil ? .textWidened : before.sha256 == nil ? .textNarrowed : .textChanged, "sha256 changed")
        }
        // No charset reads as UTF-8: writing it out, or dropping it, changes nothing.
        if before.decodingCharset != after.decodingCharset {
            add(.textChanged, "charset \(before.decodingCharset.rawValue) to \(after.decodingCharset.rawValue)")
        }
        if before.pattern != after.pattern {
            add(after.pattern == nil ? .textWidened : before.pattern == nil ? .textNarrowed : .textPatternChanged,
                "pattern \(before.pattern.map { "'\($0)'" } ?? "none") to \(after.pattern.map { "'\($0)'" } ?? "none")")
        }
        let dropped = before.contains.filter { !after.contains.contains($0) }
        let added = after.contains.filter { !before.contains.contains($0) }
        if !dropped.isEmpty { add(.textWidened, "no longer contains \(dropped.map { "'\($0)'" }.joined(separator: ", "))") }
        if !added.isEmpty { add(.textNarrowed, "contains \(added.map { "'\($0)'" }.joined(separator: ", ")) now") }
        if before.length != after.length {
            add(ResponseComparer.within(after.length, before.length) ? .textNarrowed : .textWidened, "length \(before.length) to \(after.length)")
        }
        return findings
    }
}
