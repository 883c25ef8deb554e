import ContractJSON
import ContractRequests

extension DocumentDecoder {
    /// Request headers: a name and a string value with placeholders; `null` removes an endpoint header.
    mutating func decodeRequestHeaders(_ field: Field, allowRemoval: Bool) -> [HeaderField] {
        guard field.value.objectValue != nil else {
            error("'headers' must be an object of header names to values, found \(describe(field.value))", at: field.pointer)
            return []
        }
        let named = uniqueHeaderNames(field)
        // At its size from the start: a case's few headers grown one by one left room for as
        // many again in every case of a large contract.
        var headers: [HeaderField] = []
        headers.reserveCapacity(named.count)
        for (name, member) in named {
            if member.value.isNull, allowRemoval {
                headers.append(HeaderField(name: name, value: nil))
            } else if member.value.stringValue == nil {
                let expected = allowRemoval ? "a string (or null to remove an endpoint header)" : "a string"
                error("header '\(name)' must be \(expected), found \(describe(member.value))", at: member.pointer)
            } else if headerValueIsClean(member, name), let value = template(member, name) {
                headers.append(HeaderField(name: name, value: value))
            }
        }
        return headers
    }

    /// Whether a header value as written can be sent: no line break or other control character
    /// (RFC 9110 §5.5: a field value is visible characters, spaces and tabs). A value with
    /// "\r\n" would start a header of its own; HTTP libraries refuse it, and `contract serve`
    /// answered nothing for such a fixture while its log said 200. Reported when it is not.
    mutating func headerValueIsClean(_ member: Field, _ name: String) -> Bool {
        guard let text = member.value.stringValue, let bad = FieldSyntax.forbiddenCharacter(inValue: text) else { return true }
        error(
            "header '\(name)': a header value cannot hold a line break or a control character (RFC 9110 §5.5), found \(ShownText.escaped(String(bad)))",
            at: member.pointer)
        return false
    }

    /// The members of a headers object whose names are valid tokens and unique regardless of case.
    mutating func uniqueHeaderNames(_ field: Field) -> [(String, Field)] {
        let members = field.members
        var result: [(String, Field)] = []
        result.reserveCapacity(members.count)
        for (name, member) in members {
            guard Self.isHeaderName(name) else {
                error(
                    "invalid header name '\(name)': a header name is one or more letters, digits or !#$%&'*+-.^_`|~",
                    at: member.pointer, atKey: true)
                continue
            }
            // A look along the few names before: a dictionary of lowercased copies cost more.
            if let first = result.first(where: { Self.sameHeaderName($0.0, name) }) {
                error("header '\(name)' repeats '\(first.0)' (header names are case-insensitive)", at: member.pointer, atKey: true)
                continue
            }
            result.append((name, member))
        }
        return result
    }

    /// Header names (ASCII tokens) compared ignoring case.
    static func sameHeaderName(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8) { asciiLowercase($0) == asciiLowercase($1) }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// RFC 9110 token characters.
    static func isHeaderName(_ name: String) -> Bool {
        FieldSyntax.isToken(name)
    }

    /// Query parameters: a scalar or an array of scalars (the parameter repeats); `null` removes one.
    mutating func decodeQuery(_ field: Field, allowRemoval: Bool) -> [QueryItem] {
        guard field.value.objectValue != nil else {
            error("'query' must be an object of parameter names to values, found \(describe(field.value))", at: field.pointer)
            return []
        }
        let members = field.members
        var items: [QueryItem] = []
        items.reserveCapacity(members.count)
        for (name, member) in members {
            switch member.value {
            case .null where allowRemoval:
                items.append(QueryItem(name: name, values: nil))
            case .array:
                let values = member.elements.compactMap { scalarTemplate($0, "query parameter '\(name)'") }
                items.append(QueryItem(name: name, values: values))
            case .string, .number, .bool:
                if let value = scalarTemplate(member, "query parameter '\(name)'") {
                    items.append(QueryItem(name: name, values: [value]))
                }
            default:
                let removal = allowRemoval ? ", null to remove an endpoint parameter" : ""
                error(
                    "query parameter '\(name)' must be a string, a number, a boolean or an array of them\(removal), found \(describe(member.value))",
                    at: member.pointer)
            }
        }
        return items
    }

    /// The values a case (or setup step) sends; `keys` says which fields this object may hold.
    mutating func decodeCaseRequest(_ fields: KnownFields) -> CaseRequest {
        var request = CaseRequest()
        if let pathParams = fields["pathParams"] {
            if pathParams.value.objectValue == nil {
                error("'pathParams' must be an object of placeholder names to values, found \(describe(pathParams.value))", at: pathParams.pointer)
            }
            for (name, member) in pathParams.members {
                if let value = scalarTemplate(member, "path parameter '\(name)'") {
                    request.pathParams[name] = value
                }
            }
        }
        if let url = fields["url"] {
            request.url = decodeURL(url, pathParams: fields["pathParams"])
        }
        request.query = fields["query"].map { field in reusing(\.recentQueries, field) { $0.decodeQuery($1, allowRemoval: true) } } ?? []
        request.headers = fields["headers"].map { decodeRequestHeaders($0, allowRemoval: true) } ?? []
        if let body = fields["body"], let text = fields["text"] {
            error("a request has either a JSON 'body' or a 'text' body, not both", at: text.pointer, atKey: true)
            _ = body
        } else if let body = fields["body"] {
            checkTemplates(in: body)
            request.body = .json(body.value)
        } else if let text = fields["text"], let value = template(text, "text") {
            request.body = .text(value)
        }
        if let schema = fields["schema"] {
            request.schema = decodeSchema(schema)
        }
        return request
    }

    /// A `url` to follow: a link an earlier response gave, so it reads a capture; a fixed place
    /// is a `path` with `query`, which lint and the fixtures can read.
    private mutating func decodeURL(_ field: Field, pathParams: Field?) -> TemplateString? {
        guard let url = template(field, "url") else { return nil }
        guard !url.capturedVariables.isEmpty else {
            error(
                "'url' follows a link an earlier response gave, so it reads a capture such as \"${capture:next}\"; "
                    + "for a fixed place, give 'path' (and 'query')",
                at: field.pointer)
            return nil
        }
        if let pathParams {
            error("a request that follows a 'url' has no 'pathParams': the link names the whole path", at: pathParams.pointer, atKey: true)
        }
        return url
    }

    /// Checks the placeholder syntax of every string inside a JSON body.
    mutating func checkTemplates(in field: Field) {
        switch field.value {
        case .string(let text): _ = template(text, at: field.pointer)
        case .array: for element in field.elements { checkTemplates(in: element) }
        case .object: for (_, member) in field.members { checkTemplates(in: member) }
        default: break
        }
    }

    /// Every path placeholder needs a value and every value a placeholder.
    mutating func checkPathParams(_ request: CaseRequest, path: PathTemplate, owner: @autoclosure () -> String, fields: KnownFields?, at pointer: JSONPointer) {
        let placeholders = path.placeholders
        let given = fields?["pathParams"]
        let missing = placeholders.filter { request.pathParams[$0] == nil }
        // A misspelt name is one problem: report the extra key with its suggestion, not also the missing one.
        var suggested: Set<String> = []
        for (name, member) in given?.members ?? [] where !placeholders.contains(name) {
            if placeholders.isEmpty {
                error("'pathParams' has '\(name)', but the path '\(path)' has no placeholders", at: member.pointer, atKey: true)
                continue
            }
            var hint = ""
            if let match = suggestion(for: name, among: missing) {
                suggested.insert(match)
                hint = ", did you mean '\(match)'?"
            }
            error("'pathParams' has '\(name)', which is not a placeholder of the path '\(path)'\(hint)", at: member.pointer, atKey: true)
        }
        for name in missing where !suggested.contains(name) {
            let target = given?.pointer ?? (fields == nil ? pointer : pointer.appending("request"))
            error("\(owner()) has no value for the path placeholder '{\(name)}' of '\(path)'", at: target)
        }
    }

    /// A JSON Schema is an object or a boolean; its references are checked by the reference checker.
    mutating func decodeSchema(_ field: Field) -> SchemaReference? {
        switch field.value {
        case .object, .bool:
            return SchemaReference(schema: field.value, file: file, pointer: field.pointer)
        default:
            error("'schema' must be a JSON Schema (an object or a boolean), found \(describe(field.value))", at: field.pointer)
            return nil
        }
    }
}
