import ContractJSON

/// The one writer and the one reader of a ``RequestDescription`` as JSON (a fixture's `endpoint`):
///
/// ```json
/// {"method": "POST", "pathTemplate": "/api/products",
///  "parameters": {"query": {"page": {"required": true, "schema": {"type": "integer"}, "schemaAt": "/request/parameters/query/page/schema",
///                                    "style": "form", "explode": true}}},
///  "headers": [{"name": "Authorization"}, {"name": "Accept", "value": "application/json"}],
///  "body": {"contentType": "application/json", "schema": {"$ref": "../schemas/new-product.json"}, "schemaAt": "/request/schema"},
///  "formats": true,
///  "schemaFiles": [{"path": "schemas/new-product.json", "uris": [], "schema": {…}}]}
/// ```
extension RequestDescription {
    public var json: JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "method", value: .string(method)), .init(key: "pathTemplate", value: .string(pathTemplate)),
        ]
        if !parameters.isEmpty {
            var groups: [JSONObject.Member] = []
            for location in ParameterLocation.allCases {
                let named = parameters.filter { $0.location == location }
                guard !named.isEmpty else { continue }
                groups.append(.init(key: location.rawValue, value: .object(JSONObject(named.map { .init(key: $0.name, value: Self.json($0)) }))))
            }
            members.append(.init(key: "parameters", value: .object(JSONObject(groups))))
        }
        if !headers.isEmpty {
            members.append(.init(key: "headers", value: .array(headers.map { header in
                var fields: [JSONObject.Member] = [.init(key: "name", value: .string(header.name))]
                if let value = header.value { fields.append(.init(key: "value", value: .string(value))) }
                return .object(JSONObject(fields))
            })))
        }
        if let body {
            var fields: [JSONObject.Member] = [.init(key: "contentType", value: .string(body.contentType))]
            if let schema = body.schema { fields.append(.init(key: "schema", value: schema)) }
            if let pointer = body.schemaPointer { fields.append(.init(key: "schemaAt", value: .string(pointer.description))) }
            if !body.required { fields.append(.init(key: "required", value: false)) }
            members.append(.init(key: "body", value: .object(JSONObject(fields))))
        }
        members.append(.init(key: "formats", value: .bool(assertsFormats)))
        if !schemaFiles.isEmpty {
            members.append(.init(key: "schemaFiles", value: .array(schemaFiles.map { file in
                .object(JSONObject([
                    .init(key: "path", value: .string(file.path)), .init(key: "uris", value: .array(file.uris.map { .string($0) })),
                    .init(key: "schema", value: file.document),
                ]))
            })))
        }
        return .object(JSONObject(members))
    }

    private static func json(_ parameter: Parameter) -> JSONValue {
        var fields: [JSONObject.Member] = [
            .init(key: "required", value: .bool(parameter.required)), .init(key: "style", value: .string(parameter.style.rawValue)),
            .init(key: "explode", value: .bool(parameter.explode)),
        ]
        if let schema = parameter.schema { fields.append(.init(key: "schema", value: schema)) }
        if let pointer = parameter.schemaPointer { fields.append(.init(key: "schemaAt", value: .string(pointer.description))) }
        return .object(JSONObject(fields))
    }

    /// Reads what ``json`` wrote. The error names the pointer (below `at`) of what is wrong.
    public init(json value: JSONValue, at base: JSONPointer = .root) throws(RequestDescriptionError) {
        func failure(_ message: String, _ tokens: String...) -> RequestDescriptionError {
            RequestDescriptionError(message: message, pointer: JSONPointer(tokens: base.tokens + tokens))
        }
        guard let object = value.objectValue else { throw failure("the endpoint is not an object") }
        guard let method = object["method"]?.stringValue, let template = object["pathTemplate"]?.stringValue else {
            throw failure("the endpoint has no string 'method' and 'pathTemplate'")
        }
        var parameters: [Parameter] = []
        if let groups = object["parameters"] {
            guard let groups = groups.objectValue else { throw failure("'parameters' is not an object", "parameters") }
            for group in groups.members {
                guard let location = ParameterLocation(rawValue: group.key), let named = group.value.objectValue else {
                    throw failure("'\(group.key)' is not a parameter location (path, query, header) with an object of parameters", "parameters", group.key)
                }
                for member in named.members {
                    let fields = member.value.objectValue ?? JSONObject()
                    let style = try fields["style"].map { style throws(RequestDescriptionError) in
                        guard let parsed = style.stringValue.flatMap(ParameterStyle.init(rawValue:)) else {
                            throw failure("'style' is not one of form, simple, spaceDelimited, pipeDelimited", "parameters", group.key, member.key, "style")
                        }
                        return parsed
                    }
                    let pointer = try fields["schemaAt"].map { text throws(RequestDescriptionError) in
                        guard let text = text.stringValue, let pointer = try? JSONPointer(parsing: text) else {
                            throw failure("'schemaAt' is not a JSON Pointer", "parameters", group.key, member.key, "schemaAt")
                        }
                        return pointer
                    }
                    parameters.append(Parameter(
                        location: location, name: member.key, required: fields["required"]?.boolValue ?? false, schema: fields["schema"],
                        schemaPointer: pointer, style: style, explode: fields["explode"]?.boolValue))
                }
            }
        }
        var headers: [Header] = []
        for (index, item) in (object["headers"]?.arrayValue ?? []).enumerated() {
            guard let name = item.objectValue?["name"]?.stringValue else { throw failure("a header has no string 'name'", "headers", String(index)) }
            headers.append(Header(name: name, value: item.objectValue?["value"]?.stringValue))
        }
        var body: Body? = nil
        if let fields = object["body"] {
            guard let contentType = fields.objectValue?["contentType"]?.stringValue else { throw failure("the body has no string 'contentType'", "body") }
            let pointer = fields.objectValue?["schemaAt"]?.stringValue.flatMap { try? JSONPointer(parsing: $0) }
            body = Body(
                contentType: contentType, schema: fields.objectValue?["schema"], schemaPointer: pointer,
                required: fields.objectValue?["required"]?.boolValue ?? true)
        }
        var files: [SchemaFile] = []
        for (index, item) in (object["schemaFiles"]?.arrayValue ?? []).enumerated() {
            guard let path = item.objectValue?["path"]?.stringValue, let document = item.objectValue?["schema"] else {
                throw failure("a schema file has no string 'path' and 'schema'", "schemaFiles", String(index))
            }
            files.append(SchemaFile(path: path, uris: (item.objectValue?["uris"]?.arrayValue ?? []).compactMap(\.stringValue), document: document))
        }
        self.init(
            method: method, pathTemplate: template, parameters: parameters, headers: headers, body: body,
            assertsFormats: object["formats"]?.boolValue ?? true, schemaFiles: files)
    }
}

/// Why a request description could not be read: the message and the JSON Pointer of the place.
public struct RequestDescriptionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var pointer: JSONPointer

    public var description: String { "\(pointer.isRoot ? "/" : pointer.description): \(message)" }
}
