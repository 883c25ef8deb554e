import ContractJSON
import ContractModel
import ContractRequests

/// What any request to a contract's endpoint must be, self-contained for a fixture (format 2's
/// `endpoint`): the parameters and their schemas, the headers every request sends (a value only
/// when literal, so never a secret), the body's media type and schema, and every shared schema
/// file those schemas reach, so `ContractTesting` checks an app's requests with no contracts tree.
enum FixtureEndpoint {
    static func description(
        _ contract: Contract, relativeFile: String, set: ContractSet, identifiers: [String: String], references: (String) -> [String]
    ) -> RequestDescription {
        let endpoint = contract.endpoint
        let parameters = endpoint.parameters.map {
            RequestDescription.Parameter(
                location: $0.location, name: $0.name, required: $0.required, schema: $0.schema?.schema, schemaPointer: $0.schema?.pointer,
                style: $0.style, explode: $0.explode)
        }
        // A header is one every request sends unless a case that does not expect a 4xx removes it.
        let kept = endpoint.headers.filter { header in
            header.value != nil && !contract.cases.contains { testCase in
                !testCase.response.status.isClientError
                    && testCase.request.headers.contains { $0.name.lowercased() == header.name.lowercased() && $0.value == nil }
            }
        }
        let headers = kept.map { header in
            RequestDescription.Header(name: header.name, value: header.value.flatMap { $0.mentionsEnvironment ? nil : $0.literal })
        }
        var body: RequestDescription.Body? = nil
        let schema = contract.requestBodySchema
        if schema != nil || endpoint.contentType != nil {
            // Optional when a case that does not expect a 4xx sends none (a PATCH that changes nothing).
            let required = !contract.cases.contains { !$0.response.status.isClientError && $0.request.body == nil }
            body = RequestDescription.Body(
                contentType: endpoint.contentType ?? "application/json", schema: schema?.schema, schemaPointer: schema?.pointer, required: required)
        }
        var schemas = parameters.compactMap(\.schema)
        if let schema = body?.schema { schemas.append(schema) }
        return RequestDescription(
            method: endpoint.method.rawValue, pathTemplate: endpoint.path.description, parameters: parameters, headers: headers, body: body,
            assertsFormats: set.settings.formatAssertion,
            schemaFiles: reachedFiles(from: schemas, in: relativeFile, set: set, identifiers: identifiers, references: references))
    }

    /// Every shared schema file `schemas` reach, directly or through other files, sorted by path.
    private static func reachedFiles(
        from schemas: [JSONValue], in file: String, set: ContractSet, identifiers: [String: String], references: (String) -> [String]
    ) -> [RequestDescription.SchemaFile] {
        var queue = schemas.flatMap { FixturePlanner.referencedFiles(in: $0, from: file, identifiers: identifiers) }
        var seen: Set<String> = []
        var files: [RequestDescription.SchemaFile] = []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted, let document = set.documents[next] else { continue }
            files.append(RequestDescription.SchemaFile(path: next, uris: set.settings.publishedURIs(ofSchemaFile: next), document: document.value))
            queue += references(next)
        }
        return files.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
