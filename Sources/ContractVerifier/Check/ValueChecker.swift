import ContractJSON
import ContractModel
import ContractSchema

/// Holds values of a JSON body to what the flow captured or sent (a response's `values`): each
/// finding names the place, the relation, what it was held to (the capture by name, with its
/// value) and what came back.
struct ValueChecker {
    let bindings: Bindings
    let checker: ResponseChecker

    func check(_ expectations: [ValueExpectation], in body: JSONValue) -> [Finding] {
        expectations.flatMap { expectation -> [Finding] in
            let message = failure(expectation, in: body, at: .root)
            return message.map { [finding(expectation, at: expectation.pointer, $0)] } ?? []
        }
    }

    private func finding(_ expectation: ValueExpectation, at pointer: JSONPointer, _ message: String) -> Finding {
        Finding(kind: .body, rule: "value.\(expectation.keyword)", message: message, pointer: pointer.description)
    }

    /// Why `expectation` does not hold of `document`'s value at `base` + its pointer; nil when it holds.
    private func failure(_ expectation: ValueExpectation, in document: JSONValue, at base: JSONPointer) -> String? {
        let place = Self.place(base, expectation.pointer)
        let found = try? document.resolve(expectation.pointer)
        if case .present(let wanted) = expectation.relation {
            switch (wanted, found) {
            case (true, nil): return "expected a value at \(place), found none"
            case (false, let value?): return "expected no value at \(place), found \(shown(value))"
            default: return nil
            }
        }
        guard let value = found else { return "expected a value at \(place) (\(wanted(expectation.relation))), found none" }
        switch expectation.relation {
        case .equals(let expected):
            return same(value, expected) ? nil : "expected \(place) to equal \(bindings.describe(expected)), found \(shown(value))"
        case .differs(let unwanted):
            return same(value, unwanted) ? "expected \(place) to differ from \(bindings.describe(unwanted)), found the same" : nil
        case .pattern(let template):
            let written = template.description
            guard case .string(let text) = value else {
                return "expected \(place) to be a text matching '\(written)'\(bindings.patternValues(written)), found \(value.typeName) \(shown(value))"
            }
            guard let regex = checker.regex(bindings.pattern(written)) else {
                return "the pattern '\(written)' for \(place) is not a valid regular expression with its values in it\(bindings.patternValues(written))"
            }
            let stepLimit = ECMARegex.stepLimit(forLength: text.unicodeScalars.count)
            switch regex.matches(text, stepLimit: stepLimit) {
            case .matched: return nil
            case .notMatched: return "expected \(place) to match '\(written)'\(bindings.patternValues(written)), found \(shown(value))"
            case .gaveUp:
                return "the pattern '\(written)'\(bindings.patternValues(written)) gave up after \(stepLimit) backtracking steps on \(place), \(shown(value)): "
                    + "it backtracks without end on this text"
            }
        case .after(let bound), .before(let bound):
            let after = expectation.keyword == "after"
            let other = bindings.render(bound)
            guard let order = Self.order(value, other) else {
                return "expected \(place) to be \(after ? "after" : "before") \(bindings.describe(bound)), found \(shown(value)): "
                    + "both must be date-times (RFC 3339) or both numbers"
            }
            let holds = after ? order == .more : order == .less
            return holds ? nil : "expected \(place) to be \(after ? "after" : "before") \(bindings.describe(bound)), found \(shown(value))"
        case .someElement(let inner):
            guard case .array(let elements) = value else { return "expected \(place) to be an array, found \(value.typeName)" }
            let itemBase = JSONPointer(tokens: base.tokens + expectation.pointer.tokens)
            for (index, element) in elements.enumerated()
            where inner.allSatisfy({ failure($0, in: element, at: itemBase.appending(String(index))) == nil }) {
                return nil
            }
            let what = inner.map { "\($0.pointer.description.isEmpty ? "the element" : $0.pointer.description) \(wanted($0.relation))" }
            return "expected some element of \(place) to have \(what.joined(separator: " and ")), found none of its \(elements.count)"
        case .present:
            return nil
        }
    }

    /// Equal as JSON; a text taken from a header or a part of a text equals a boolean written the
    /// same way, and a number it writes as JSON, by value (`"41"` and `41`, `"12.50"` and `12.5`):
    /// the schema holds the type. Only a text that holds
    /// such a capture: a string the contract writes out (`"/price": "12"`) means a string, and a
    /// value captured whole from a JSON body keeps its type (a create's `"41"` is not a read's `41`).
    private func same(_ value: JSONValue, _ expected: JSONValue) -> Bool {
        let rendered = bindings.render(expected, redacted: false)
        if rendered == value { return true }
        guard case .string(let written) = expected, written.mayHoldPlaceholder,
            let template = try? TemplateString(parsing: written), template.capturedVariables.contains(where: bindings.textCaptures.contains)
        else { return false }
        switch (rendered, value) {
        case (.string(let text), .number(let number)):
            // By value: the body's number reads back normalised (`12.50` as `12.5`, `1e2` as `100`).
            return JSONNumber(text) == number
        case (.string(let text), .bool):
            return CanonicalJSONWriter(style: .compact).string(value) == text
        default:
            return false
        }
    }

    enum Order { case less, same, more }

    /// How a value orders against a bound's text: both date-times, or both numbers.
    static func order(_ value: JSONValue, _ bound: String) -> Order? {
        if case .string(let text) = value, let left = RFC3339Instant(text), let right = RFC3339Instant(bound) {
            return left == right ? .same : left < right ? .less : .more
        }
        let text: String
        switch value {
        case .number(let number): text = number.description
        case .string(let string): text = string
        default: return nil
        }
        guard let left = JSONNumber(text), let right = JSONNumber(bound) else { return nil }
        return left == right ? .same : left < right ? .less : .more
    }

    private func wanted(_ relation: ValueExpectation.Relation) -> String {
        switch relation {
        case .equals(let value): "equal to \(bindings.describe(value))"
        case .differs(let value): "other than \(bindings.describe(value))"
        case .pattern(let template): "matching '\(template.description)'"
        case .after(let bound): "after \(bindings.describe(bound))"
        case .before(let bound): "before \(bindings.describe(bound))"
        case .someElement: "with some element as described"
        case .present(let flag): flag ? "present" : "absent"
        }
    }

    private func shown(_ value: JSONValue) -> String {
        checker.clip(CanonicalJSONWriter(style: .compact).string(value))
    }

    private static func place(_ base: JSONPointer, _ pointer: JSONPointer) -> String {
        let full = JSONPointer(tokens: base.tokens + pointer.tokens).description
        return full.isEmpty ? "the body" : full
    }
}
