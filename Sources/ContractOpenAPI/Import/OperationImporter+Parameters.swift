import ContractJSON
import ContractModel

extension OperationImporter {
    /// The endpoint's `parameters`: each path, query and header parameter of the operation that a
    /// contract can describe, with its schema converted as a body's is, `style`/`explode` when the
    /// document sets them, and `required` when the document says so and every case that expects
    /// success sends it (a value the import could not make would otherwise fail lint, and the
    /// whole operation with it; the case already has a warning). Left undescribed: cookies, the
    /// headers the import sets itself (Accept, Content-Type, Authorization, credentials), an
    /// object in a query (sent as several parameters), a path in `matrix` or `label` style, and a
    /// parameter given as `content` instead of a schema.
    mutating func describe(
        _ parameters: [ImportedParameter], placeholders: [String: String], credentials: Credentials, cases: [JSONValue],
        schemaSources: inout [JSONPointer: JSONPointer]
    ) -> JSONValue? {
        var reserved: Set<String> = ["accept", "content-type", "authorization"]
        for (header, _) in credentials.headers { reserved.insert(header.lowercased()) }
        var groups: [String: JSONObject] = [:]
        for parameter in parameters {
            guard let (location, sentIn) = Self.contractLocation(of: parameter.location),
                let schema = parameter.object["schema"],
                parameter.location != "header" || (!reserved.contains(parameter.name.lowercased()) && Self.isToken(parameter.name)),
                parameter.location != "query" || !credentials.query.contains(where: { $0.0 == parameter.name })
            else { continue }
            let resolved = document.resolved(schema, at: parameter.pointer.appending("schema"))?.0
            let types = Set([resolved?["type"]?.stringValue].compactMap { $0 } + (resolved?["type"]?.arrayValue?.compactMap(\.stringValue) ?? []))
            guard !types.contains("object") else { continue }
            var described = JSONObject()
            let name = location == "path" ? placeholders[parameter.name] ?? parameter.name : parameter.name
            if let style = parameter.object["style"]?.stringValue {
                let allowed = location == "query" ? ["form", "spaceDelimited", "pipeDelimited"] : ["simple"]
                guard allowed.contains(style) else { continue }
                if style != (location == "query" ? "form" : "simple") { described["style"] = .string(style) }
            }
            if case .bool(let explode)? = parameter.object["explode"], location == "query" {
                let style = parameter.object["style"]?.stringValue ?? "form"
                if explode != (style == "form") { described["explode"] = .bool(explode) }
            }
            if parameter.required, location != "path", Self.everySuccessCase(cases, sends: name, in: sentIn) { described["required"] = true }
            let schemaPointer = parameter.pointer.appending("schema")
            described["schema"] = converter.convert(schema, at: schemaPointer, depth: 0)
            schemaSources[JSONPointer(tokens: ["request", "parameters", location, name, "schema"])] = schemaPointer
            groups[location, default: JSONObject()][name] = .object(described)
        }
        var result = JSONObject()
        for location in ["path", "query", "header"] { if let group = groups[location] { result[location] = .object(group) } }
        return result.isEmpty ? nil : .object(result)
    }

    /// The contract's name for an OpenAPI location, and the key of a case's request that sends it.
    private static func contractLocation(of location: String) -> (String, String)? {
        switch location {
        case "path": ("path", "pathParams")
        case "query": ("query", "query")
        case "header": ("header", "headers")
        default: nil
        }
    }

    /// Whether every case that does not expect a 4xx sends `name` in its request's `key`.
    private static func everySuccessCase(_ cases: [JSONValue], sends name: String, in key: String) -> Bool {
        cases.allSatisfy { value in
            let testCase = value.objectValue
            if Self.expectsClientError(testCase?["response"]?.objectValue?["status"]) { return true }
            return testCase?["request"]?.objectValue?[key]?.objectValue?[name] != nil
        }
    }

    private static func expectsClientError(_ status: JSONValue?) -> Bool {
        let alternatives: [JSONValue] = status?.arrayValue ?? [status].compactMap { $0 }
        return !alternatives.isEmpty && alternatives.allSatisfy {
            switch $0 {
            case .number(let number): number.int64Value.map { (400..<500).contains($0) } ?? false
            case .string(let text): text == "4XX"
            default: false
            }
        }
    }
}
