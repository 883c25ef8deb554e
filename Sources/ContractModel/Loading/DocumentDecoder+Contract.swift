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
            } else if casesField.value.arrayValue?.isEmpty == true {
                error("'cases' must hold at least one case", at: casesField.pointer)
            }
            let elements = casesField.value.arrayValue ?? []
            let casesPointer = casesField.pointer
            cases.reserveCapacity(elements.count)
            // Where each name was first used (a pointer is made only for a message): the first
            // name of each fold (as file systems that ignore case fold names), and each name that
            // differs in case from the first of its fold, by their position in `cases`.
            var firstOfFold = CaseNameFolds(capacity: elements.count)
            var caseVariants: [String: Int] = [:]
            var elementOfCase: [Int32] = []
            elementOfCase.reserveCapacity(elements.count)
            func namePointer(_ element: Int) -> JSONPointer { casesPointer.appending(element).appending("name") }
            func location(ofCase position: Int) -> SourceLocation? { document.location(of: namePointer(Int(elementOfCase[position]))) }
            for (index, value) in elements.enumerated() {
                guard let testCase = decodeCase(Field(value: value, in: casesPointer, at: String(index)), path: path) else { continue }
                let folded = FixturePathName.collisionKey(testCase.name)
                let fold = firstOfFold.position(of: folded) { FixturePathName.collisionKey(cases[$0].name) }
                let first = fold.flatMap { cases[$0].name == testCase.name ? $0 : nil } ?? caseVariants[testCase.name]
                if let first, let location = location(ofCase: first) {
                    error("duplicate case name '\(testCase.name)', first used at line \(location.line), column \(location.column)", at: namePointer(index))
                    continue
                }
                if let fold, let location = location(ofCase: fold) {
                    error(
                        "case name '\(testCase.name)' differs only in case from '\(cases[fold].name)', first used at line \(location.line), column \(location.column); file systems that ignore case would give both one fixture file",
                        at: namePointer(index))
                    caseVariants[testCase.name] = cases.count
                } else {
                    firstOfFold.insert(folded, at: cases.count)
                }
                elementOfCase.append(Int32(truncatingIfNeeded: index))
                cases.append(consume testCase)
            }
        }
        guard let id, let endpoint else { return nil }
        checkParameterUse(endpoint, cases)
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
