import ContractJSON

/// The keys of format v1, in one place so unknown-key suggestions and the docs agree.
enum FormatKeys {
    static let contract = ["$schema", "id", "summary", "description", "tags", "request", "cases"]
    static let endpoint = ["method", "path", "headers", "query", "parameters", "schema", "contentType"]
    static let parameter = ["required", "schema", "style", "explode", "description"]
    static let testCase = ["name", "summary", "description", "tags", "setup", "request", "response", "capture", "teardown"]
    static let caseRequest = ["pathParams", "url", "query", "headers", "body", "text", "schema"]
    static let setupStep = ["name", "request", "status", "capture"]
    static let setupRequest = ["method", "path", "url", "pathParams", "query", "headers", "body", "text"]
    static let response = ["status", "headers", "schema", "example", "text", "empty", "values"]
    static let headerMatcher = ["equals", "pattern", "present", "differs"]
    static let textMatcher = ["equals", "pattern"]
}

extension DocumentDecoder {
    /// Decodes a whole contract file; nil when it is too broken to describe an endpoint.
    /// - Parameter streamed: its cases, when they were decoded as the parse finished each
    ///   (``CaseStream``); the document then holds what the stream kept of them.
    mutating func decodeContract(streamed: CaseCollector? = nil) -> Contract? {
        for duplicate in document.duplicateKeys {
            error(
                "duplicate key '\(duplicate.key)', first at line \(duplicate.firstLocation.line), column \(duplicate.firstLocation.column); JSON readers disagree on which value wins",
                at: duplicate.pointer, atKey: true)
        }
        guard let fields = object(root, "a contract", allowed: FormatKeys.contract, required: ["id", "request", "cases"]) else {
            return nil
        }
        if let schema = fields["$schema"] { _ = string(schema, "$schema") }
        let id = pathIdentifier(fields["id"], "id", as: .contractID)
        let summary = string(fields["summary"], "summary")
        let description = string(fields["description"], "description")
        let tags = stringList(fields["tags"], "tags")
        let endpoint = fields["request"].flatMap { decodeEndpoint($0) }
        var cases: [ContractCase] = []
        if let casesField = fields["cases"] {
            if casesField.value.arrayValue == nil {
                error("'cases' must be an array of cases, found \(describe(casesField.value))", at: casesField.pointer)
            } else if casesField.value.arrayValue?.isEmpty == true {
                error("'cases' must hold at least one case", at: casesField.pointer)
            }
            if let streamed {
                cases = streamed.cases
            } else {
                // Cases are checked against the path even when another part of the endpoint is wrong.
                let path = endpoint?.path ?? Self.path(ofEndpoint: fields["request"]?.value)
                let elements = casesField.value.arrayValue ?? []
                var collector = CaseCollector(capacity: elements.count)
                for (index, value) in elements.enumerated() {
                    collector.add(value, at: index, path: path, decoder: &self)
                }
                cases = collector.cases
            }
        }
        guard let id, let endpoint else { return nil }
        checkParameterUse(endpoint, cases)
        return Contract(id: id, summary: summary, description: description, tags: tags, endpoint: endpoint, cases: cases, file: file)
    }

    /// The endpoint's path as its cases are checked against it: the endpoint's own, or where
    /// another part of the endpoint is wrong, its `path` read alone.
    static func path(ofEndpoint request: JSONValue?) -> PathTemplate? {
        request?.objectValue?["path"]?.stringValue.flatMap { try? PathTemplate(parsing: $0) }
    }

    mutating func decodeEndpoint(_ field: Field) -> Endpoint? {
        guard let fields = object(field, "the endpoint 'request'", allowed: FormatKeys.endpoint, required: ["method", "path"]) else {
            return nil
        }
        let method = decodeMethod(fields["method"])
        let path = decodePath(fields["path"])
        let headers = fields["headers"].map { decodeRequestHeaders($0, allowRemoval: false) } ?? []
        let query = fields["query"].map { decodeQuery($0, allowRemoval: false) } ?? []
        let parameters = fields["parameters"].map { decodeParameters($0, path: path) } ?? []
        let schema = fields["schema"].flatMap { decodeSchema($0) }
        var contentType: String?
        if let field = fields["contentType"], let text = string(field, "contentType") {
            if MediaType.isValid(text) { contentType = text } else { error("'contentType' must be a media type such as 'application/json', found \(describe(field.value))", at: field.pointer) }
        }
        guard let method, let path else { return nil }
        return Endpoint(method: method, path: path, headers: headers, query: query, parameters: parameters, schema: schema, contentType: contentType)
    }

    mutating func decodeMethod(_ field: Field?) -> HTTPMethod? {
        guard let field, let text = string(field, "method") else { return nil }
        if let method = HTTPMethod(rawValue: text) { return method }
        let names = HTTPMethod.allCases.map(\.rawValue)
        if let method = HTTPMethod(rawValue: text.uppercased()) {
            error("HTTP methods are written in capitals, found \(describe(field.value)), did you mean '\(method.rawValue)'?", at: field.pointer)
        } else {
            error(
                "unknown HTTP method \(describe(field.value)), expected one of \(names.joined(separator: ", "))\(didYouMean(text, among: names))",
                at: field.pointer)
        }
        return nil
    }

    mutating func decodePath(_ field: Field?) -> PathTemplate? {
        guard let field, let text = string(field, "path") else { return nil }
        do {
            return try PathTemplate(parsing: text)
        } catch {
            self.error(error.message, at: field.pointer)
            return nil
        }
    }
}
