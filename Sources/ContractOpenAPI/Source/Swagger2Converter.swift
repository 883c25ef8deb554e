import ContractJSON

/// A Swagger 2.0 document rewritten in memory as the OpenAPI 3.0 document it describes, so the
/// rest of the import reads one shape:
/// - `host`, `basePath`, `schemes` become `servers`; `definitions`, `parameters`, `responses` and
///   `securityDefinitions` move under `components`, and every `$ref` follows them;
/// - a `body` parameter becomes the `requestBody` (in each media type of `consumes`), `formData`
///   parameters a form body (`multipart/form-data` when a file is among them); other parameters
///   keep their place with their type under `schema` and `collectionFormat` as `style`/`explode`;
/// - a response's `schema` and `examples` go under `content` for each media type of `produces`,
///   its headers' types under `schema`;
/// - schemas keep their shape (2.0's are 3.0's but for `x-nullable`, which becomes `nullable`,
///   and `type: file`, which becomes a binary string).
///
/// A split document's other files, bundled under `/x-contract-files` beforehand, are converted
/// alike: each value a reference reaches, by the role it is referred to in (``Role``).
///
/// Where each value came from is kept (``origin(of:)``), so warnings point into the 2.0 file.
struct Swagger2Converter {
    private(set) var warnings: [(message: String, at: JSONPointer)] = []
    /// Converted places and the 2.0 places they came from; looked up by each prefix of a pointer,
    /// longest first (a scan of all of them for each located warning took most of a large import).
    private var origins: [[String]: [String]] = [:]
    /// Shared parameters by name: a reference to a body or form field one is resolved at each
    /// operation, with that operation's `consumes`.
    private(set) var sharedParameters: [String: JSONObject] = [:]
    /// The document as given, with its other files bundled: where references into them are read.
    private(set) var source: JSONValue = .object(JSONObject())
    /// The document's own `produces` and `consumes`, for shared responses and bodies.
    private(set) var produces: [String] = []
    private(set) var consumes: [String] = []
    /// Places in bundled files that references reach, to convert in the role they are referred
    /// to in, each once (``convertFiles()``).
    var pending: [(pointer: JSONPointer, role: Role)] = []
    var queued: Set<JSONPointer> = []

    /// The 2.0 place a converted pointer came from: the longest recorded prefix, mapped.
    func origin(of pointer: JSONPointer) -> JSONPointer {
        for count in stride(from: pointer.tokens.count, to: 0, by: -1) {
            if let original = origins[Array(pointer.tokens.prefix(count))] {
                return JSONPointer(tokens: original + pointer.tokens.dropFirst(count))
            }
        }
        return pointer
    }

    /// The first record of a place stands.
    mutating func moved(_ converted: [String], from original: [String]) {
        if origins[converted] == nil { origins[converted] = original }
    }

    mutating func convert(_ root: JSONObject) -> JSONObject {
        source = .object(root)
        var result = JSONObject()
        result["openapi"] = "3.0.3"
        moved(["openapi"], from: ["swagger"])
        for key in ["info", "tags", "externalDocs", "security"] where root[key] != nil {
            result[key] = rewritingReferences(root[key] ?? .null)
            moved([key], from: [key])
        }
        if let servers = servers(root) { result["servers"] = .array(servers) }
        produces = root["produces"]?.arrayValue?.compactMap(\.stringValue) ?? []
        consumes = root["consumes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var components = JSONObject()
        if case .object(let definitions)? = root["definitions"] {
            components["schemas"] = .object(JSONObject(definitions.members.map { .init(key: $0.key, value: schema($0.value)) }))
            moved(["components", "schemas"], from: ["definitions"])
        }
        var bodies = JSONObject()
        var parameters = JSONObject()
        for member in root["parameters"]?.objectValue ?? JSONObject() {
            guard let parameter = member.value.objectValue else { continue }
            sharedParameters[member.key] = parameter
            if parameter["in"]?.stringValue == "body" {
                bodies[member.key] = .object(requestBody([parameter], form: false, consumes: consumes))
                moved(["components", "requestBodies", member.key], from: ["parameters", member.key])
            } else {
                parameters[member.key] = .object(self.parameter(parameter))
                moved(["components", "parameters", member.key], from: ["parameters", member.key])
            }
        }
        if !parameters.isEmpty { components["parameters"] = .object(parameters) }
        if !bodies.isEmpty { components["requestBodies"] = .object(bodies) }
        if case .object(let responses)? = root["responses"] {
            components["responses"] = .object(JSONObject(responses.members.map {
                .init(key: $0.key, value: .object(response($0.value.objectValue ?? JSONObject(), produces: produces)))
            }))
            moved(["components", "responses"], from: ["responses"])
        }
        if case .object(let schemes)? = root["securityDefinitions"] {
            components["securitySchemes"] = .object(JSONObject(schemes.members.map { .init(key: $0.key, value: .object(securityScheme($0.value.objectValue ?? JSONObject()))) }))
            moved(["components", "securitySchemes"], from: ["securityDefinitions"])
        }
        if !components.isEmpty { result["components"] = .object(components) }
        var paths = JSONObject()
        for pathMember in root["paths"]?.objectValue ?? JSONObject() {
            guard let item = pathMember.value.objectValue else { continue }
            paths[pathMember.key] = .object(pathItem(item, at: ["paths", pathMember.key]))
        }
        result["paths"] = .object(paths)
        if let files = convertFiles() { result[ExternalReferences.area] = .object(files) }
        return result
    }

    /// A path item, at `tokens` in the document.
    mutating func pathItem(_ item: JSONObject, at tokens: [String]) -> JSONObject {
        var converted = JSONObject()
        moved(tokens, from: tokens)
        for member in item {
            switch member.key {
            case "parameters":
                // Each operation takes the path's parameters in (bodies and form fields need its
                // `consumes`); the path item keeps none.
                continue
            case "get", "put", "post", "delete", "options", "head", "patch":
                guard let operation = member.value.objectValue else { continue }
                let inherited = (item["parameters"]?.arrayValue ?? []).compactMap(\.objectValue)
                converted[member.key] = .object(self.operation(
                    operation, inherited: inherited, at: tokens + [member.key], produces: produces, consumes: consumes))
            case "$ref":
                // The path item is in another file, converted there.
                converted[member.key] = member.value
                refer(to: member.value, as: .pathItem)
            default:
                converted[member.key] = member.value
            }
        }
        return converted
    }

    private func servers(_ root: JSONObject) -> [JSONValue]? {
        let host = root["host"]?.stringValue
        let basePath = root["basePath"]?.stringValue ?? ""
        guard host != nil || !basePath.isEmpty else { return nil }
        let schemes = root["schemes"]?.arrayValue?.compactMap(\.stringValue) ?? ["https"]
        let urls = host.map { host in schemes.map { "\($0)://\(host)\(basePath)" } } ?? [basePath]
        return urls.map { .object(JSONObject([.init(key: "url", value: .string($0))])) }
    }

    mutating func operation(
        _ operation: JSONObject, inherited: [JSONObject], at tokens: [String], produces: [String], consumes: [String]
    ) -> JSONObject {
        let produces = operation["produces"]?.arrayValue?.compactMap(\.stringValue) ?? produces
        let consumes = operation["consumes"]?.arrayValue?.compactMap(\.stringValue) ?? consumes
        var result = JSONObject()
        // Shared parameters taken in: a body or form field needs this operation's `consumes`, and
        // identity (name and place) must be known to let an operation's parameter replace one of the path's.
        func resolved(_ parameter: JSONObject) -> JSONObject {
            sharedParameter(parameter) ?? parameter
        }
        var all: [(parameter: JSONObject, written: JSONObject, index: Int?)] = inherited.map { (resolved($0), $0, nil) }
        for (index, value) in (operation["parameters"]?.arrayValue ?? []).enumerated() {
            guard let written = value.objectValue else { continue }
            let parameter = resolved(written)
            // An operation's parameter replaces a path-level one of the same name and place.
            if let name = parameter["name"], let place = parameter["in"] {
                all.removeAll { $0.index == nil && $0.parameter["name"] == name && $0.parameter["in"] == place }
            }
            all.append((parameter, written, index))
        }
        var converted: [JSONValue] = []
        var body: [JSONObject] = []
        var form: [JSONObject] = []
        for (parameter, written, index) in all {
            switch parameter["in"]?.stringValue {
            case "body":
                body.append(parameter)
                if let index { moved(tokens + ["requestBody"], from: tokens + ["parameters", String(index)]) }
            case "formData":
                form.append(parameter)
            default:
                if let index { moved(tokens + ["parameters", String(converted.count)], from: tokens + ["parameters", String(index)]) }
                if let reference = written["$ref"]?.stringValue {
                    converted.append(.object(JSONObject([.init(key: "$ref", value: .string(Self.rewrite(reference)))])))
                    refer(to: .string(reference), as: .parameter)
                } else {
                    converted.append(.object(self.parameter(parameter)))
                }
            }
        }
        for member in operation {
            switch member.key {
            case "parameters", "produces", "consumes", "schemes":
                continue
            case "$ref":
                // An operation in another file (not OpenAPI's, but written): converted there.
                result[member.key] = member.value
                refer(to: member.value, as: .operation)
            case "responses":
                var responses = JSONObject()
                for response in member.value.objectValue ?? JSONObject() {
                    let responseTokens = tokens + ["responses", response.key]
                    moved(responseTokens, from: responseTokens)
                    for mediaType in produces.isEmpty ? ["application/json"] : produces {
                        moved(responseTokens + ["content", mediaType, "schema"], from: responseTokens + ["schema"])
                    }
                    if let reference = response.value.objectValue?["$ref"]?.stringValue {
                        responses[response.key] = .object(JSONObject([.init(key: "$ref", value: .string(Self.rewrite(reference)))]))
                        refer(to: .string(reference), as: .response)
                    } else {
                        responses[response.key] = .object(self.response(response.value.objectValue ?? JSONObject(), produces: produces))
                    }
                }
                result["responses"] = .object(responses)
            default:
                result[member.key] = rewritingReferences(member.value)
            }
        }
        if !converted.isEmpty { result["parameters"] = .array(converted) }
        if !body.isEmpty {
            result["requestBody"] = .object(requestBody(body, form: false, consumes: consumes))
        } else if !form.isEmpty {
            result["requestBody"] = .object(requestBody(form, form: true, consumes: consumes))
        }
        return result
    }

    mutating func parameter(_ parameter: JSONObject) -> JSONObject {
        var result = JSONObject()
        var schema = JSONObject()
        for member in parameter {
            switch member.key {
            case "name", "in", "description", "required", "allowEmptyValue", "deprecated":
                result[member.key] = member.value
            case "collectionFormat":
                let format = member.value.stringValue ?? "csv"
                let isQuery = parameter["in"]?.stringValue == "query" || parameter["in"]?.stringValue == "formData"
                switch format {
                case "multi": result["style"] = "form"; result["explode"] = true
                case "ssv": result["style"] = "spaceDelimited"; result["explode"] = false
                case "pipes": result["style"] = "pipeDelimited"; result["explode"] = false
                default: result["style"] = isQuery ? "form" : "simple"; result["explode"] = false
                }
            case "x-example":
                result["example"] = member.value
            case let key where key.hasPrefix("x-"):
                result[key] = member.value
            default:
                schema[member.key] = member.value
            }
        }
        if parameter["in"]?.stringValue == "query", parameter["collectionFormat"] == nil, schema["type"]?.stringValue == "array" {
            // 2.0's default for arrays is `csv`: one comma-separated value.
            result["style"] = "form"
            result["explode"] = false
        }
        result["schema"] = self.schema(.object(schema))
        return result
    }

    private mutating func requestBody(_ parameters: [JSONObject], form: Bool, consumes: [String]) -> JSONObject {
        var result = JSONObject()
        var content = JSONObject()
        if form {
            var properties = JSONObject()
            var required: [JSONValue] = []
            for parameter in parameters {
                guard let name = parameter["name"]?.stringValue else { continue }
                var property = self.parameter(parameter)["schema"]?.objectValue ?? JSONObject()
                // A form field's example belongs to its property, where the body is made from.
                if let example = parameter["x-example"] { property["example"] = example }
                properties[name] = .object(property)
                if parameter["required"]?.boolValue == true { required.append(.string(name)) }
            }
            var schema = JSONObject()
            schema["type"] = "object"
            schema["properties"] = .object(properties)
            if !required.isEmpty { schema["required"] = .array(required) }
            let hasFile = parameters.contains { $0["type"]?.stringValue == "file" }
            let mediaType = consumes.first { $0.contains("form") } ?? (hasFile ? "multipart/form-data" : "application/x-www-form-urlencoded")
            content[mediaType] = .object(JSONObject([.init(key: "schema", value: .object(schema))]))
            if !required.isEmpty { result["required"] = true }
        } else if let body = parameters.first {
            if let description = body["description"] { result["description"] = description }
            if let required = body["required"] { result["required"] = required }
            for mediaType in consumes.isEmpty ? ["application/json"] : consumes {
                var media = JSONObject()
                media["schema"] = schema(body["schema"] ?? .object(JSONObject()))
                if let example = body["x-example"] { media["example"] = example }
                content[mediaType] = .object(media)
            }
        }
        result["content"] = .object(content)
        return result
    }

    mutating func response(_ response: JSONObject, produces: [String]) -> JSONObject {
        var result = JSONObject()
        result["description"] = response["description"] ?? ""
        if case .object(let headers)? = response["headers"] {
            result["headers"] = .object(JSONObject(headers.members.map { header in
                var converted = JSONObject()
                var schema = JSONObject()
                for member in header.value.objectValue ?? JSONObject() {
                    if member.key == "description" { converted["description"] = member.value } else { schema[member.key] = member.value }
                }
                converted["schema"] = self.schema(.object(schema))
                return .init(key: header.key, value: .object(converted))
            }))
        }
        let examples = response["examples"]?.objectValue ?? JSONObject()
        if let schema = response["schema"] {
            var content = JSONObject()
            for mediaType in produces.isEmpty ? ["application/json"] : produces {
                var media = JSONObject()
                media["schema"] = self.schema(schema)
                if let example = examples[mediaType] { media["example"] = example }
                content[mediaType] = .object(media)
            }
            result["content"] = .object(content)
        }
        return result
    }

    private func securityScheme(_ scheme: JSONObject) -> JSONObject {
        var result = JSONObject()
        switch scheme["type"]?.stringValue {
        case "basic":
            result["type"] = "http"
            result["scheme"] = "basic"
        case "oauth2":
            result["type"] = "oauth2"
            var flow = JSONObject()
            for key in ["authorizationUrl", "tokenUrl"] where scheme[key] != nil { flow[key] = scheme[key] }
            flow["scopes"] = scheme["scopes"] ?? .object(JSONObject())
            let name = ["implicit": "implicit", "password": "password", "application": "clientCredentials", "accessCode": "authorizationCode"][
                scheme["flow"]?.stringValue ?? ""] ?? "implicit"
            result["flows"] = .object(JSONObject([.init(key: name, value: .object(flow))]))
        default:
            for member in scheme { result[member.key] = member.value }
        }
        if let description = scheme["description"] { result["description"] = description }
        return result
    }

    /// A 2.0 schema as 3.0 reads it: references moved, `x-nullable` as `nullable`, files as binary strings.
    mutating func schema(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for member in object {
                // Values, not schemas: an example may well hold a `type` or a `$ref` of its own.
                if ["example", "examples", "default", "enum", "const", "x-example"].contains(member.key) {
                    result[member.key] = member.value
                    continue
                }
                switch (member.key, member.value) {
                case (let key, .object(let map)) where SchemaConverter.schemaMaps.contains(key):
                    // Names, not keywords: a property may be called `example` or `type`.
                    result[member.key] = .object(JSONObject(map.members.map { .init(key: $0.key, value: schema($0.value)) }))
                case ("$ref", .string(let reference)):
                    result["$ref"] = .string(Self.rewrite(reference))
                    refer(to: .string(reference), as: .schema)
                case ("x-nullable", .bool(let nullable)), ("x-isnullable", .bool(let nullable)):
                    if nullable { result["nullable"] = true }
                case ("type", .string("file")):
                    result["type"] = "string"
                    result["format"] = "binary"
                default:
                    result[member.key] = schema(member.value)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { schema($0) })
        default:
            return value
        }
    }

    private func rewritingReferences(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.members.map { member in
                if member.key == "$ref", let reference = member.value.stringValue { return .init(key: "$ref", value: .string(Self.rewrite(reference))) }
                return .init(key: member.key, value: rewritingReferences(member.value))
            }))
        case .array(let elements):
            return .array(elements.map(rewritingReferences))
        default:
            return value
        }
    }

    /// `#/definitions/Pet` → `#/components/schemas/Pet`, and so on for the other sections.
    static func rewrite(_ reference: String) -> String {
        for (old, new) in [
            ("#/definitions/", "#/components/schemas/"), ("#/responses/", "#/components/responses/"), ("#/parameters/", "#/components/parameters/"),
        ] where reference.hasPrefix(old) {
            return new + reference.dropFirst(old.count)
        }
        return reference
    }
}
