import ContractJSON

extension DocumentDecoder {
    /// `request.parameters`: `{"path": {…}, "query": {…}, "header": {…}}`, each a name to a
    /// parameter object.
    mutating func decodeParameters(_ field: Field, path: PathTemplate?) -> [RequestParameter] {
        guard field.value.objectValue != nil else {
            error("'parameters' must be an object with 'path', 'query' or 'header', found \(describe(field.value))", at: field.pointer)
            return []
        }
        var parameters: [RequestParameter] = []
        for (key, group) in field.members {
            guard let location = RequestParameter.Location(rawValue: key) else {
                let names = RequestParameter.Location.allCases.map(\.rawValue)
                error("unknown parameter location '\(key)', expected one of \(names.joined(separator: ", "))\(didYouMean(key, among: names))", at: group.pointer, atKey: true)
                continue
            }
            guard group.value.objectValue != nil else {
                error("'\(key)' must be an object of parameter names to parameters, found \(describe(group.value))", at: group.pointer)
                continue
            }
            let members = location == .header ? uniqueHeaderNames(group) : group.members
            for (name, member) in members {
                if let parameter = decodeParameter(member, name: name, location: location, path: path) { parameters.append(parameter) }
            }
        }
        if let path {
            for placeholder in path.placeholders where !parameters.isEmpty && !parameters.contains(where: { $0.location == .path && $0.name == placeholder }) {
                // Described parameters are a promise about the whole request: a placeholder
                // left out would be the one value nothing checks.
                if parameters.contains(where: { $0.location == .path }) {
                    error("'parameters.path' has no '\(placeholder)', a placeholder of '\(path)'", at: field.pointer.appending("path"))
                }
            }
        }
        return parameters
    }

    private mutating func decodeParameter(_ field: Field, name: String, location: RequestParameter.Location, path: PathTemplate?) -> RequestParameter? {
        guard let fields = object(field, "parameter '\(name)'", allowed: FormatKeys.parameter, required: []) else { return nil }
        if location == .path, let path, !path.placeholders.contains(name) {
            error("path parameter '\(name)' is not a placeholder of '\(path)'\(didYouMean(name, among: path.placeholders))", at: field.pointer, atKey: true)
            return nil
        }
        var required = false
        if let field = fields["required"] {
            if case .bool(let value) = field.value {
                required = value
                if location == .path, !value { error("a path parameter is always required: remove 'required': false", at: field.pointer) }
            } else {
                error("'required' must be true or false, found \(describe(field.value))", at: field.pointer)
            }
        }
        if let description = fields["description"] { _ = string(description, "description") }
        let schema = fields["schema"].flatMap { decodeSchema($0) }
        var style: RequestParameter.Style?
        if let field = fields["style"], let text = string(field, "style") {
            let allowed: [RequestParameter.Style] = location == .query ? [.form, .spaceDelimited, .pipeDelimited] : [.simple]
            if let parsed = RequestParameter.Style(rawValue: text), allowed.contains(parsed) {
                style = parsed
            } else {
                let names = allowed.map(\.rawValue)
                error("a \(location.rawValue) parameter's 'style' is one of \(names.joined(separator: ", ")), found \(describe(field.value))", at: field.pointer)
            }
        }
        var explode: Bool?
        if let field = fields["explode"] {
            if case .bool(let value) = field.value { explode = value } else { error("'explode' must be true or false, found \(describe(field.value))", at: field.pointer) }
        }
        return RequestParameter(location: location, name: name, required: required, schema: schema, style: style, explode: explode, pointer: field.pointer)
    }

    /// What every case sends against what the endpoint describes: a required query parameter or
    /// header each case sends (or removes on purpose, in a case that expects a 4xx), and no query
    /// parameter the endpoint does not describe when it describes its query.
    mutating func checkParameterUse(_ endpoint: Endpoint, _ cases: [ContractCase]) {
        checkContentTypes(endpoint, cases)
        guard !endpoint.parameters.isEmpty else { return }
        let contract = Contract(id: "", endpoint: endpoint, cases: [], file: file)
        let describesQuery = endpoint.parameters.contains { $0.location == .query }
        for testCase in cases {
            let negative = testCase.response.status.isClientError
            for parameter in endpoint.parameters where parameter.required && parameter.location != .path && !negative {
                if contract.sentValues(of: parameter, in: testCase) == nil {
                    error(
                        "case '\(testCase.name)' does not send the required \(parameter.location.rawValue) parameter '\(parameter.name)' (a case that expects a 4xx may leave it out on purpose)",
                        at: testCase.pointer)
                }
            }
            guard describesQuery else { continue }
            for item in contract.query(for: testCase) where item.values != nil {
                guard !endpoint.parameters.contains(where: { $0.location == .query && $0.name == item.name }) else { continue }
                let names = endpoint.parameters.filter { $0.location == .query }.map(\.name)
                let owner = testCase.request.query.contains { $0.name == item.name } ? testCase.pointer.appending("request") : JSONPointer(tokens: ["request"])
                warning(
                    "query parameter '\(item.name)' is not among the endpoint's parameters\(didYouMean(item.name, among: names))",
                    at: owner.appending("query").appending(item.name))
            }
        }
    }

    /// A case that sends a body sends it as the endpoint's `contentType` (a JSON `body` without a
    /// `Content-Type` header is `application/json`), unless it expects a 4xx.
    private mutating func checkContentTypes(_ endpoint: Endpoint, _ cases: [ContractCase]) {
        guard let expected = endpoint.contentType ?? (endpoint.schema != nil ? "application/json" : nil) else { return }
        let contract = Contract(id: "", endpoint: endpoint, cases: [], file: file)
        for testCase in cases where testCase.request.body != nil && !testCase.response.status.isClientError {
            let header = contract.headers(for: testCase).first { $0.name.lowercased() == "content-type" }
            guard let sent = header?.value?.literal ?? (header == nil ? Self.impliedContentType(testCase.request.body) : nil),
                MediaType.essence(sent) != MediaType.essence(expected)
            else { continue }
            let owner = testCase.request.headers.contains { $0.name.lowercased() == "content-type" } ? testCase.pointer.appending("request") : JSONPointer(tokens: ["request"])
            error(
                "case '\(testCase.name)' sends its body as '\(sent)'; the endpoint takes '\(expected)' (a case that expects a 4xx may send another on purpose)",
                at: header.map { owner.appending("headers").appending($0.name) } ?? testCase.pointer.appending("request").appending("body"))
        }
    }

    private static func impliedContentType(_ body: RequestBody?) -> String? {
        if case .json? = body { return "application/json" }
        return nil
    }
}
