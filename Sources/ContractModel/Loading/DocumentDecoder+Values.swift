import ContractJSON
import ContractSchema

extension FormatKeys {
    /// A `values` matcher object: exactly one relation.
    static let valueRelations = ["equals", "differs", "pattern", "after", "before", "someElement", "present"]
}

extension DocumentDecoder {
    /// A `pattern` that may hold placeholders (`^/items/${capture:itemId}$`): checked as the
    /// regular expression it is with each placeholder standing for a literal text. Parsed once,
    /// so a capture it reads is recorded (and, unknown, reported) once.
    mutating func templatedExpression(_ field: Field) -> TemplateString? {
        guard let text = string(field, "pattern") else { return nil }
        guard text.contains("${") else { return regularExpression(field).map(TemplateString.init(literal:)) }
        guard let template = template(text, at: field.pointer) else { return nil }
        let standIn = template.segments.map { segment -> String in
            if case .literal(let literal) = segment { return literal }
            // As a run inserts a value: one group (Bindings.pattern).
            return "(?:x)"
        }.joined()
        do {
            _ = try ECMARegex(standIn)
            return template
        } catch {
            self.error("'pattern' is not a valid ECMA-262 regular expression (with each placeholder as a text): \(error)", at: field.pointer)
            return nil
        }
    }

    /// A response's `values`: JSON Pointers into the body, each to a value (`equals` it) or a
    /// matcher object with one relation.
    mutating func decodeValueExpectations(_ field: Field, depth: Int = 0) -> [ValueExpectation] {
        guard field.value.objectValue != nil else {
            error("'values' must be an object of JSON Pointers into the body to values or matchers, found \(describe(field.value))", at: field.pointer)
            return []
        }
        var expectations: [ValueExpectation] = []
        for (key, member) in field.members {
            guard let pointer = try? JSONPointer(parsing: key) else {
                error("'\(key)' is not a JSON Pointer into the body such as \"/id\"", at: member.pointer, atKey: true)
                continue
            }
            guard case .object = member.value else {
                if let value = jsonTemplate(member) { expectations.append(ValueExpectation(pointer: pointer, relation: .equals(value))) }
                continue
            }
            if let relation = decodeRelation(member, at: key, depth: depth) { expectations.append(ValueExpectation(pointer: pointer, relation: relation)) }
        }
        return expectations
    }

    private mutating func decodeRelation(_ field: Field, at key: String, depth: Int) -> ValueExpectation.Relation? {
        guard let fields = matcherFields(field, "the matcher of '\(key)'", allowed: FormatKeys.valueRelations),
            let name = FormatKeys.valueRelations.first(where: { fields[$0] != nil }), let relation = fields[name]
        else { return nil }
        switch name {
        case "equals": return jsonTemplate(relation).map { .equals($0) }
        case "differs": return jsonTemplate(relation).map { .differs($0) }
        case "pattern": return templatedExpression(relation).map { .pattern($0) }
        case "after", "before":
            let value: TemplateString?
            let wanted = "'\(name)' must be an RFC 3339 date-time or a number (or hold a placeholder)"
            switch relation.value {
            case .number(let number): value = TemplateString(literal: number.description)
            case .string(let text): value = template(text, at: relation.pointer)
            default:
                error("\(wanted), found \(describe(relation.value))", at: relation.pointer)
                return nil
            }
            guard let value else { return nil }
            // A bound without placeholders is known now: one that is neither kind (a date without
            // its time, "yesterday") would fail every run, whatever the server answers.
            if let text = value.literalText {
                guard RFC3339Instant(text) != nil || JSONNumber(text) != nil else {
                    error("\(wanted), found '\(MessageText.clipped(text))'", at: relation.pointer)
                    return nil
                }
            }
            return name == "after" ? .after(value) : .before(value)
        case "someElement":
            // Deeper than any real body's nesting of lists; a bound so no document recurses without end.
            guard depth < 16 else {
                error("'someElement' nests more than 16 levels deep", at: relation.pointer)
                return nil
            }
            guard relation.value.objectValue != nil else {
                error("'someElement' must be an object of JSON Pointers into the element to values or matchers, found \(describe(relation.value))", at: relation.pointer)
                return nil
            }
            let inner = decodeValueExpectations(relation, depth: depth + 1)
            if inner.isEmpty, relation.value.objectValue?.isEmpty == true {
                error("'someElement' needs at least one value to hold each element to", at: relation.pointer)
                return nil
            }
            return .someElement(inner)
        default:
            return bool(relation, "present").map { .present($0) }
        }
    }

    /// A JSON value whose strings may hold placeholders, each checked for syntax.
    private mutating func jsonTemplate(_ field: Field) -> JSONValue? {
        var valid = true
        func visit(_ field: Field) {
            switch field.value {
            case .string(let text):
                if template(text, at: field.pointer) == nil { valid = false }
            case .array:
                field.elements.forEach(visit)
            case .object:
                field.members.forEach { visit($0.1) }
            default:
                break
            }
        }
        visit(field)
        return valid ? field.value : nil
    }
}
