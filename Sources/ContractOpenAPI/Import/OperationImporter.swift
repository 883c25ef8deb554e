import ContractJSON
import ContractModel

/// One contract made from one operation.
struct ImportedContract {
    var id: String
    /// Relative to the output folder.
    var file: String
    var value: JSONObject
    var caseCount: Int
    /// The operation in the document.
    var pointer: JSONPointer
    /// Where each schema the contract writes inline comes from in the document: its pointer in
    /// the contract (`/cases/0/response/schema`) to the schema's in the document.
    var schemaSources: [JSONPointer: JSONPointer] = [:]
}

/// Operations to contracts: one contract per operation, a case per response status that a
/// request of the document can be expected to produce (docs/openapi.md, "Cases").
struct OperationImporter {
    let document: OpenAPIDocument
    var converter: SchemaConverter
    private(set) var security: SecurityMapping
    var diagnostics: [Diagnostic] = []
    private var usedIDs: Set<String> = []
    /// The inline schemas of the case being made, by their pointer in the case, to their place in
    /// the document (``ImportedContract/schemaSources``).
    var caseSchemaSources: [(JSONPointer, JSONPointer)] = []
    let samples: SampleValue
    /// Values given for parameters by name (`--value petId=42`), used before any the document has.
    var givenValues: [String: JSONValue] = [:]
    /// Parameter values the document gave no example for, so the import made them up.
    var madeUp: [MadeUpValue] = []
    /// Environment variables for required header parameters without a value, by name.
    var headerVariables: [String: SecurityVariable] = [:]

    init(document: OpenAPIDocument) {
        self.document = document
        converter = SchemaConverter(document: document)
        security = SecurityMapping(document: document)
        samples = SampleValue(document: document)
    }

    mutating func importOperations() -> [ImportedContract] {
        var contracts: [ImportedContract] = []
        if let webhooks = document.root["webhooks"]?.objectValue, !webhooks.isEmpty {
            diagnostics.append(document.warning(
                "webhooks (\(webhooks.keys.joined(separator: ", "))) are requests the API sends, not ones it answers; skipped", at: JSONPointer(tokens: ["webhooks"])))
        }
        for path in document.paths() {
            if let hash = path.key.firstIndex(of: "#") {
                // `/files/{id}#get_shared_link`: one path described several times, told apart by a
                // fragment that no request carries.
                diagnostics.append(document.warning(
                    "the path's fragment '\(MessageText.clipped(String(path.key[hash...])))' is not sent: requests go to '\(MessageText.clipped(String(path.key[..<hash]), to: 100))'; contract ids keep it",
                    at: path.pointer))
            }
            for operation in path.operations {
                guard operation.method != "trace" else {
                    diagnostics.append(document.warning("TRACE operations cannot be expressed in a contract; skipped", at: operation.pointer))
                    continue
                }
                if let contract = importOperation(
                    operation.object, method: operation.method, path: path.key, pathItem: (path.item, path.itemPointer), at: operation.pointer)
                {
                    contracts.append(contract)
                }
            }
        }
        return contracts
    }

    // MARK: - One operation

    private mutating func importOperation(
        _ operation: JSONObject, method: String, path: String, pathItem: (JSONObject, JSONPointer), at pointer: JSONPointer
    ) -> ImportedContract? {
        let label = "\(method.uppercased()) \(path)"
        if let callbacks = operation["callbacks"]?.objectValue, !callbacks.isEmpty {
            diagnostics.append(document.warning(
                "callbacks (\(callbacks.keys.joined(separator: ", "))) are requests the API sends; skipped", at: pointer.appending("callbacks")))
        }
        var parameters = self.parameters(of: operation, pathItem: pathItem, at: pointer)
        // `/v1/files?beta=true`: an operation on `/v1/files` that always sends `beta=true`.
        let (sentPath, sentQuery) = DocumentPath.requestPath(ofKey: path)
        let requestPath = String(sentPath)
        let fixedQuery = sentQuery.map(Self.queryItems) ?? []
        let templated = Self.placeholderNames(in: requestPath)
        let declared = Set(parameters.filter { $0.location == "path" }.map(\.name))
        if let missing = templated.first(where: { !declared.contains($0) }) {
            diagnostics.append(document.warning(
                "\(label): the path's '{\(missing)}' has no path parameter of that name, so no request can be made; skipped", at: pointer))
            return nil
        }
        for parameter in parameters where parameter.location == "path" && !templated.contains(parameter.name) {
            diagnostics.append(document.warning("\(label): path parameter '\(parameter.name)' is not in the path; left out", at: parameter.pointer))
        }
        parameters.removeAll { $0.location == "path" && !templated.contains($0.name) }
        for parameter in parameters where parameter.location == "cookie" {
            diagnostics.append(document.warning(
                "\(label): cookie parameter '\(parameter.name)' cannot be expressed in a contract (cookies are not sent); left out", at: parameter.pointer))
        }
        var placeholders: [String: String] = [:]
        var takenPlaceholders: Set<String> = []
        for parameter in parameters where parameter.location == "path" {
            // `{pet-id}` and `{pet_id}` in one path must stay two placeholders.
            var placeholder = Identifiers.placeholder(parameter.name)
            while !takenPlaceholders.insert(placeholder).inserted { placeholder += "_" }
            placeholders[parameter.name] = placeholder
        }
        let template = Self.template(requestPath, placeholders)

        let body = requestBody(of: operation, at: pointer)
        if let body, body.mode == .unsupported {
            if body.required {
                diagnostics.append(document.warning(
                    "\(label): request bodies of type '\(body.mediaType)' cannot be expressed in a contract; the operation is skipped", at: body.pointer))
                return nil
            }
            diagnostics.append(document.warning(
                "\(label): request bodies of type '\(body.mediaType)' cannot be expressed in a contract; sent without a body", at: body.pointer))
        }

        var responses = self.responses(of: operation, at: pointer.appending("responses"), label: label)
        if responses.isEmpty {
            // 3.1 lets an operation leave its responses out; the least it promises is success.
            diagnostics.append(document.note("\(label): no responses documented; its case expects any 2XX status and does not check the body", at: pointer))
            responses = [ImportedResponse(key: "2XX", object: JSONObject(), pointer: pointer)]
        }
        if !responses.contains(where: \.isSuccess), let index = responses.firstIndex(where: { $0.key == "default" }) {
            // `default` covers every status the others do not, success included: with no success
            // documented, it is what a successful call returns.
            diagnostics.append(document.note(
                "\(label): no success response documented; 'default' stands for it, and its case expects any 2XX status", at: responses[index].pointer))
            responses[index].key = "2XX"
        }
        let credentials = security.credentials(for: operation, at: pointer)
        let requirements = (operation["security"] ?? document.root["security"])?.arrayValue ?? []
        let allowsAnonymous = requirements.contains { $0.objectValue?.isEmpty == true }
        var specs = caseSpecs(responses: responses, parameters: parameters, body: body, credentials: credentials, allowsAnonymous: allowsAnonymous)
        let exercised = Set(specs.map(\.response.key))
        let left = responses.filter { !exercised.contains($0.key) }.map(\.key)
        if !left.isEmpty {
            diagnostics.append(document.note(
                "\(label): response\(left.count == 1 ? "" : "s") \(left.joined(separator: ", ")) not turned into cases: no request example of the document leads to \(left.count == 1 ? "it" : "them") (docs/openapi.md)",
                at: pointer.appending("responses")))
        }
        guard !specs.isEmpty else {
            diagnostics.append(document.warning("\(label): no response can be exercised, so no contract was written", at: pointer.appending("responses")))
            return nil
        }
        specs.sort { $0.order < $1.order }
        let errorExamples = Set(responses.filter { !$0.isSuccess }.flatMap { $0.json.map { Self.exampleNames($0.media) } ?? [] })

        let id = uniqueID(operation["operationId"]?.stringValue ?? "\(method)-\(path)")
        var endpoint = JSONObject()
        endpoint["method"] = .string(method.uppercased())
        endpoint["path"] = .string(template)
        var headers = JSONObject()
        if responses.contains(where: { $0.json != nil }) { headers["Accept"] = "application/json" }
        for (name, value) in credentials.headers { headers[name] = .string(value) }
        if !headers.isEmpty { endpoint["headers"] = .object(headers) }
        var query = JSONObject()
        for (name, value) in fixedQuery {
            // A name given twice (`?tag=a&tag=b`) is sent twice.
            switch query[name] {
            case nil: query[name] = Self.literal(.string(value))
            case .array(let values)?: query[name] = .array(values + [Self.literal(.string(value))])
            case let first?: query[name] = .array([first, Self.literal(.string(value))])
            }
        }
        for (name, value) in credentials.query { query[name] = .string(value) }
        if !query.isEmpty { endpoint["query"] = .object(query) }
        var schemaSources: [JSONPointer: JSONPointer] = [:]
        if let body, body.mode == .json, let schema = body.media["schema"] {
            // What the app may send, whatever case a test picks.
            let schemaPointer = body.pointer.appending("schema")
            endpoint["schema"] = converter.convert(schema, at: schemaPointer, depth: 0)
            if body.mediaType.lowercased() != "application/json" { endpoint["contentType"] = .string(body.mediaType) }
            schemaSources[JSONPointer(tokens: ["request", "schema"])] = schemaPointer
        }

        var contract = JSONObject()
        // For editors: completion and checks from the format's schema, written beside the contracts.
        contract["$schema"] = .string(ContractFormatSchema.fileName)
        contract["id"] = .string(id)
        if let summary = Self.summary(of: operation) { contract["summary"] = .string(summary) }
        var tags: [JSONValue] = []
        for case .string(let tag) in operation["tags"]?.arrayValue ?? [] where !tags.contains(.string(tag)) { tags.append(.string(tag)) }
        if !tags.isEmpty { contract["tags"] = .array(tags) }
        contract["request"] = .object(endpoint)
        var names: Set<String> = []
        contract["cases"] = .array(specs.enumerated().map { index, spec in
            let name = Identifiers.uniqueFixtureName(spec.name, as: .caseName, taken: &names)
            caseSchemaSources = []
            let value = JSONValue.object(makeCase(contractID: id,
                spec, name: name, method: method, parameters: parameters, placeholders: placeholders, body: body, credentials: credentials,
                errorExamples: errorExamples, label: label))
            for (inCase, inDocument) in caseSchemaSources { schemaSources[JSONPointer(tokens: ["cases", String(index)] + inCase.tokens)] = inDocument }
            return value
        })
        if case .array(let cases)? = contract["cases"],
            let described = describe(parameters, placeholders: placeholders, credentials: credentials, cases: cases, schemaSources: &schemaSources)
        {
            endpoint["parameters"] = described
            contract["request"] = .object(endpoint)
        }
        // `contract.json` at the root is the tree's settings, not a contract (on any file system).
        let base = Identifiers.fileSafe(id)
        let file = (base.lowercased() == "contract" ? base + "-operation" : base) + ".json"
        return ImportedContract(id: id, file: file, value: contract, caseCount: specs.count, pointer: pointer, schemaSources: schemaSources)
    }

    private static func summary(of operation: JSONObject) -> String? {
        if let summary = operation["summary"]?.stringValue, !summary.isEmpty { return summary }
        guard let description = operation["description"]?.stringValue else { return nil }
        let line = description.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return line.isEmpty ? nil : line.count > 120 ? String(line.prefix(119)) + "…" : line
    }

    /// `beta=true&view=full` as name and value pairs, percent-decoded; a name without `=` has
    /// the empty value.
    private static func queryItems(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&").compactMap { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            guard let name = parts.first.map(decoded), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decoded(parts[1]) : "")
        }
    }

    private static func placeholderNames(in path: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The path with each `{name}` replaced once by its placeholder (one pass, so a renamed
    /// placeholder is never renamed again).
    private static func template(_ path: String, _ placeholders: [String: String]) -> String {
        var result = ""
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let name = String(rest[rest.index(after: open)..<close])
            result += rest[..<open] + "{" + (placeholders[name] ?? name) + "}"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    private mutating func uniqueID(_ text: String) -> String {
        Identifiers.uniqueFixtureName(text, as: .contractID, taken: &usedIDs)
    }
}
