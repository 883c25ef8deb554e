import ContractJSON
import ContractSchema

extension DocumentDecoder {
    mutating func decodeResponse(_ field: Field, what: String) -> ResponseExpectation? {
        guard let fields = object(field, "the response of \(what)", allowed: FormatKeys.response, required: ["status"]) else { return nil }
        let status = fields["status"].flatMap { decodeStatus($0) }
        let headers = fields["headers"].map { decodeHeaderExpectations($0) } ?? []
        let body = decodeBodyExpectation(fields)
        guard let status else { return nil }
        return ResponseExpectation(status: status, headers: headers, body: body ?? .unchecked)
    }

    /// `200`, `"2XX"` or a list of them.
    mutating func decodeStatus(_ field: Field) -> StatusExpectation? {
        if field.value.arrayValue != nil {
            guard !field.elements.isEmpty else {
                error("'status' must list at least one status code or class", at: field.pointer)
                return nil
            }
            var alternatives: [StatusExpectation.Alternative] = []
            var failed = false
            for element in field.elements {
                guard let alternative = decodeStatusAlternative(element) else {
                    failed = true
                    continue
                }
                if alternatives.contains(alternative) {
                    error("'status' lists \(describe(element.value)) twice", at: element.pointer)
                } else {
                    alternatives.append(alternative)
                }
            }
            return failed ? nil : StatusExpectation(alternatives)
        }
        return decodeStatusAlternative(field).map { StatusExpectation([$0]) }
    }

    private mutating func decodeStatusAlternative(_ field: Field) -> StatusExpectation.Alternative? {
        let expected = "'status' must be an integer from 100 to 599, a class like '2XX' or a list of them"
        switch field.value {
        case .number(let number):
            if let code = number.intValue, number.isInteger, (100...599).contains(code) { return .code(code) }
        case .string(let text):
            let scalars = Array(text.unicodeScalars)
            if scalars.count == 3, ("1"..."5").contains(scalars[0]) {
                if scalars[1] == "X", scalars[2] == "X", let digit = Int(String(scalars[0])) { return .class(digit) }
                if scalars[1...].allSatisfy({ $0 == "x" || $0 == "X" }) {
                    error("\(expected), found \(describe(field.value)), did you mean '\(text.uppercased())'?", at: field.pointer)
                    return nil
                }
                if let code = Int(text), (100...599).contains(code) {
                    error("\(expected), found the string \(describe(field.value)), did you mean \(code)?", at: field.pointer)
                    return nil
                }
            }
        default:
            break
        }
        error("\(expected), found \(describe(field.value))", at: field.pointer)
        return nil
    }

    /// Response headers: an exact value, or an object with one of `equals`, `pattern`, `present`.
    mutating func decodeHeaderExpectations(_ field: Field) -> [HeaderExpectation] {
        guard field.value.objectValue != nil else {
            error("'headers' must be an object of header names to matchers, found \(describe(field.value))", at: field.pointer)
            return []
        }
        var expectations: [HeaderExpectation] = []
        for (name, member) in uniqueHeaderNames(field) {
            if member.value.stringValue != nil {
                if let value = template(member, name) { expectations.append(HeaderExpectation(name: name, matcher: .equals(value))) }
                continue
            }
            guard let matcherFields = matcherFields(member, "the matcher of header '\(name)'", allowed: FormatKeys.headerMatcher) else {
                continue
            }
            if let equals = matcherFields["equals"], let value = template(equals, "equals") {
                expectations.append(HeaderExpectation(name: name, matcher: .equals(value)))
            } else if let pattern = matcherFields["pattern"], let text = regularExpression(pattern) {
                expectations.append(HeaderExpectation(name: name, matcher: .pattern(text)))
            } else if let present = matcherFields["present"], let flag = bool(present, "present") {
                expectations.append(HeaderExpectation(name: name, matcher: flag ? .present : .absent))
            }
        }
        return expectations
    }

    /// The members of a matcher object, which must hold exactly one of `allowed`.
    private mutating func matcherFields(_ field: Field, _ what: String, allowed: [String]) -> [String: Field]? {
        guard field.value.objectValue != nil else {
            let options = allowed.map { "'\($0)'" }.joined(separator: ", ")
            error("\(what) must be a string or an object with one of \(options), found \(describe(field.value))", at: field.pointer)
            return nil
        }
        guard let fields = object(field, what, allowed: allowed) else { return nil }
        let given = allowed.filter { fields[$0] != nil }
        guard given.count == 1 else {
            let options = allowed.map { "'\($0)'" }.joined(separator: ", ")
            let found = given.isEmpty ? "none" : given.map { "'\($0)'" }.joined(separator: " and ")
            // A misspelt key was reported already; "found none" would say the same thing twice.
            let misspelt = (field.value.objectValue?.count ?? 0) > given.count
            if given.count > 1 || !misspelt {
                error("\(what) needs exactly one of \(options), found \(found)", at: field.pointer)
            }
            return nil
        }
        return fields
    }

    /// A `pattern` string that compiles as an ECMA-262 regular expression, as `contract verify` will use it.
    mutating func regularExpression(_ field: Field) -> String? {
        guard let text = string(field, "pattern") else { return nil }
        if validPatterns.contains(text) { return text }
        do {
            _ = try ECMARegex(text)
            validPatterns.insert(text)
            return text
        } catch {
            self.error("'pattern' is not a valid ECMA-262 regular expression: \(error)", at: field.pointer)
            return nil
        }
    }

    /// At most one of `schema`, `text`, `empty`; `example` only beside `schema`.
    mutating func decodeBodyExpectation(_ fields: [String: Field]) -> BodyExpectation? {
        let kinds = ["schema", "text", "empty"].filter { fields[$0] != nil }
        if kinds.count > 1, let second = fields[kinds[1]] {
            error("'\(kinds[0])' and '\(kinds[1])' cannot both be given: a response body is JSON ('schema'), 'text' or 'empty'",
                at: second.pointer, atKey: true)
            return nil
        }
        if let example = fields["example"], fields["schema"] == nil {
            error("'example' needs a 'schema' beside it to be checked against", at: example.pointer, atKey: true)
        }
        if let schemaField = fields["schema"] {
            guard let schema = decodeSchema(schemaField) else { return nil }
            return .json(schema: schema, example: fields["example"]?.value)
        }
        if let textField = fields["text"] {
            if let text = textField.value.stringValue { return .text(.equals(text)) }
            guard let matcher = matcherFields(textField, "'text'", allowed: FormatKeys.textMatcher) else { return nil }
            if let equals = string(matcher["equals"], "equals") { return .text(.equals(equals)) }
            if let pattern = matcher["pattern"].flatMap({ regularExpression($0) }) { return .text(.pattern(pattern)) }
            return nil
        }
        if let emptyField = fields["empty"] {
            guard let flag = bool(emptyField, "empty") else { return nil }
            guard flag else {
                error("'empty' can only be true; leave it out to accept any body", at: emptyField.pointer)
                return nil
            }
            return .empty
        }
        return .unchecked
    }
}
