import ContractJSON

/// The keys of format v1, in one place so unknown-key suggestions and the docs agree.
enum FormatKeys {
    static let contract = ["$schema", "id", "summary", "description", "tags", "request", "cases"]
    static let endpoint = ["method", "path", "headers", "query"]
    static let testCase = ["name", "summary", "description", "tags", "setup", "request", "response"]
    static let caseRequest = ["pathParams", "query", "headers", "body", "text", "schema"]
    static let setupStep = ["name", "request", "status", "capture"]
    static let setupRequest = ["method", "path", "pathParams", "query", "headers", "body", "text"]
    static let response = ["status", "headers", "schema", "example", "text", "empty"]
    static let headerMatcher = ["equals", "pattern", "present"]
    static let textMatcher = ["equals", "pattern"]
}

extension DocumentDecoder {
    /// Decodes a whole contract file; nil when it is too broken to describe an endpoint.
    mutating func decodeContract() -> Contract? {
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
        // Cases are checked against the path even when another part of the endpoint is wrong.
        let path = endpoint?.path ?? fields["request"]?.member("path")?.value.stringValue.flatMap { try? PathTemplate(parsing: $0) }
        var cases: [ContractCase] = []
        if let casesField = fields["cases"] {
            if casesField.value.arrayValue == nil {
                error("'cases' must be an array of cases, found \(describe(casesField.value))", at: casesField.pointer)
            } else if casesField.elements.isEmpty {
                error("'cases' must hold at least one case", at: casesField.pointer)
            }
            var namesSeen: [String: JSONPointer] = [:]
            // Names that differ only in case are one fixture file where the file system ignores case.
            var foldedNamesSeen: [String: (name: String, pointer: JSONPointer)] = [:]
            for element in casesField.elements {
                guard let testCase = decodeCase(element, path: path) else { continue }
                let namePointer = element.pointer.appending("name")
                let folded = FixturePathName.collisionKey(testCase.name)
                if let first = namesSeen[testCase.name], let location = document.location(of: first) {
                    error("duplicate case name '\(testCase.name)', first used at line \(location.line), column \(location.column)", at: namePointer)
                    continue
                }
                if let first = foldedNamesSeen[folded], let location = document.location(of: first.pointer) {
                    error(
                        "case name '\(testCase.name)' differs only in case from '\(first.name)', first used at line \(location.line), column \(location.column); file systems that ignore case would give both one fixture file",
                        at: namePointer)
                } else {
                    foldedNamesSeen[folded] = (testCase.name, namePointer)
                }
                namesSeen[testCase.name] = namePointer
                cases.append(testCase)
            }
        }
        guard let id, let endpoint else { return nil }
        return Contract(id: id, summary: summary, description: description, tags: tags, endpoint: endpoint, cases: cases, file: file)
    }

    mutating func decodeEndpoint(_ field: Field) -> Endpoint? {
        guard let fields = object(field, "the endpoint 'request'", allowed: FormatKeys.endpoint, required: ["method", "path"]) else {
            return nil
        }
        let method = decodeMethod(fields["method"])
        let path = decodePath(fields["path"])
        let headers = fields["headers"].map { decodeRequestHeaders($0, allowRemoval: false) } ?? []
        let query = fields["query"].map { decodeQuery($0, allowRemoval: false) } ?? []
        guard let method, let path else { return nil }
        return Endpoint(method: method, path: path, headers: headers, query: query)
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
