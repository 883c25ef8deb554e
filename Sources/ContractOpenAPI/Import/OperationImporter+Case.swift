import ContractJSON
import ContractModel
import ContractRequests
import Foundation

extension OperationImporter {
    /// The case object for `spec`: request values, then the expected response.
    mutating func makeCase(
        contractID: String, _ spec: CaseSpec, name: String, method: String, parameters: [ImportedParameter], placeholders: [String: String], body: ImportedBody?,
        credentials: Credentials, errorExamples: Set<String>, label: String
    ) -> JSONObject {
        // Header names the importer sets itself, or that credentials set: theirs win.
        var reserved: Set<String> = ["accept", "content-type", "authorization"]
        for (header, _) in credentials.headers { reserved.insert(header.lowercased()) }
        var pathParams = JSONObject()
        var query = JSONObject()
        var headers = JSONObject()
        for parameter in parameters {
            var value = self.value(of: parameter, example: spec.exampleName, avoiding: errorExamples).map(Self.literal)
            if let given = givenValues[parameter.name] {
                value = GivenValues.written(given)
                for variable in GivenValues.environmentVariables(in: given) where headerVariables[variable] == nil {
                    headerVariables[variable] = SecurityVariable(
                        name: variable, scheme: "", usage: "the value given for '\(parameter.name)' (--value \(parameter.name)=…)")
                }
            } else if parameter.location == "header", parameter.required, !Self.isDocumented(parameter) {
                // A required header the document gives no value for is most often a credential or a
                // tenant (`x-token`): made up, every case would be refused. The environment gives it.
                value = .string("${env:\(headerVariable(for: parameter))}")
            } else if !Self.isDocumented(parameter), value != nil || parameter.location == "path" {
                record(madeUp: parameter, value: value ?? "example", usedBy: "\(contractID)/\(name)")
            }
            if value == nil, parameter.required, parameter.location == "query" || parameter.location == "header" {
                diagnostics.append(document.warning(
                    "\(label): required \(parameter.location) parameter '\(parameter.name)' has no example and no schema to make a value from; left out, so case '\(name)' may fail",
                    at: parameter.pointer))
            }
            switch parameter.location {
            case "path":
                // Style `simple`, the default for paths and headers: arrays and objects as comma lists.
                pathParams[placeholders[parameter.name] ?? parameter.name] = Self.simple(value ?? "example")
            case "query":
                guard let value, !credentials.query.contains(where: { $0.0 == parameter.name }) else { continue }
                if case .array(let items) = value, items.allSatisfy(Self.isScalar) {
                    // Exploded (`form`'s default), one parameter per item; else one list, with commas,
                    // or spaces (`spaceDelimited`, 2.0's `ssv`) or bars (`pipeDelimited`, `pipes`).
                    let style = parameter.object["style"]?.stringValue ?? "form"
                    let separator = ["spaceDelimited": " ", "pipeDelimited": "|"][style] ?? ","
                    let explode = parameter.object["explode"]?.boolValue ?? (style == "form")
                    query[parameter.name] = explode ? value : .string(items.map(Self.text).joined(separator: separator))
                } else if Self.isScalar(value) {
                    query[parameter.name] = value
                } else if case .object(let object) = value, object.members.allSatisfy({ Self.isScalar($0.value) }) {
                    // An object of scalars in its OpenAPI style: `deepObject` sends `name[key]=value`,
                    // exploded `form` (the default) one parameter per key, `form` unexploded one
                    // `key,value,…` list.
                    let style = parameter.object["style"]?.stringValue ?? "form"
                    if style == "form", parameter.object["explode"] == .bool(false) {
                        query[parameter.name] = .string(object.members.map { "\($0.key),\(Self.text($0.value))" }.joined(separator: ","))
                    } else if style == "deepObject" || style == "form" {
                        for member in object.members {
                            let key = style == "deepObject" ? "\(parameter.name)[\(member.key)]" : member.key
                            if query[key] == nil { query[key] = member.value }
                        }
                    } else {
                        diagnostics.append(document.warning(
                            "\(label): query parameter '\(parameter.name)' has style '\(style)', which contracts cannot send for an object; left out",
                            at: parameter.pointer))
                    }
                } else {
                    diagnostics.append(document.warning(
                        "\(label): query parameter '\(parameter.name)' takes an object with nested values, which contracts cannot send; left out",
                        at: parameter.pointer))
                }
            case "header":
                // OpenAPI ignores these three as header parameters; the importer sets them itself.
                // OpenAPI ignores Accept, Content-Type and Authorization as header parameters.
                guard let value, reserved.insert(parameter.name.lowercased()).inserted, Self.isToken(parameter.name) else { continue }
                headers[parameter.name] = .string(Self.text(Self.simple(value)))
            default:
                continue  // cookies: reported once per operation by the caller
            }
        }
        if spec.withoutCredentials {
            for (header, _) in credentials.headers { headers[header] = .null }
            for (parameter, _) in credentials.query { query[parameter] = .null }
        }

        var request = JSONObject()
        if !pathParams.isEmpty { request["pathParams"] = .object(pathParams) }
        if !query.isEmpty { request["query"] = .object(query) }
        if let body, body.mode != .unsupported,
            var value = self.value(of: body, example: spec.exampleName, avoiding: errorExamples, changing: method == "patch").map(Self.literal)
        {
            if spec.response.isSuccess, !spec.withoutCredentials {
                value = completedBody(value, body, example: spec.exampleName, method: method, label: label, contractID: contractID, caseName: name)
            }
            switch body.mode {
            case .json:
                // Its schema is the endpoint's (`request.schema`), for every case: a case that
                // expects a 4xx may send a wrong body on purpose.
                request["body"] = value
                // `application/vnd.api+json` is what the server reads: sent as such, not as the
                // plain JSON a body is sent as by default.
                if MediaType.essence(body.mediaType) != "application/json" { headers["Content-Type"] = .string(body.mediaType) }
            case .form:
                headers["Content-Type"] = .string(body.mediaType)
                request["text"] = .string(Self.formEncoded(value))
            case .text:
                headers["Content-Type"] = .string(body.mediaType)
                request["text"] = .string(Self.text(value))
            case .unsupported:
                break
            }
        }
        if !headers.isEmpty { request["headers"] = .object(headers) }

        var testCase = JSONObject()
        testCase["name"] = .string(name)
        if !request.isEmpty { testCase["request"] = .object(request) }
        testCase["response"] = .object(response(spec, method: method))
        return testCase
    }

    private mutating func response(_ spec: CaseSpec, method: String) -> JSONObject {
        let documented = spec.response
        var response = JSONObject()
        response["status"] = spec.alsoAccepted.isEmpty ? documented.status : documented.status.map { .array([$0] + spec.alsoAccepted) }
        var headers = JSONObject()
        // A wildcard (`text/*`) names no one type to check.
        if let type = documented.json?.type ?? documented.otherType, !type.contains("*") {
            let base = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? type
            headers["Content-Type"] = .object(JSONObject([JSONObject.Member(key: "pattern", value: .string("^" + Self.regexEscaped(base)))]))
        }
        for member in documented.object["headers"]?.objectValue ?? JSONObject() where member.key.lowercased() != "content-type" {
            let pointer = documented.pointer.appending("headers").appending(member.key)
            guard let (header, _) = document.resolved(member.value, at: pointer), header["required"]?.boolValue == true else { continue }
            // A name no answer can carry would make the whole contract fail lint: the header is
            // left out, the operation kept.
            guard Self.isToken(member.key) else {
                diagnostics.append(document.warning(
                    "response header '\(ShownText.oneLine(member.key))' is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~); left out of the case's checks", at: pointer))
                continue
            }
            // Header names ignore case: `etag` after `ETag` is the same header, checked once.
            if let first = headers.members.first(where: { $0.key.lowercased() == member.key.lowercased() }) {
                diagnostics.append(document.warning(
                    "response header '\(member.key)' repeats '\(first.key)' (header names ignore case); checked once", at: pointer))
                continue
            }
            headers[member.key] = .object(JSONObject([JSONObject.Member(key: "present", value: true)]))
        }
        if !headers.isEmpty { response["headers"] = .object(headers) }
        if method == "head" {
            // A HEAD response has no body, whatever content its GET twin documents.
        } else if let json = documented.json, let schema = json.media["schema"] {
            response["schema"] = converter.convert(schema, at: json.pointer.appending("schema"), depth: 0)
            caseSchemaSources.append((JSONPointer(tokens: ["response", "schema"]), json.pointer.appending("schema")))
            let example = spec.exampleName.flatMap { exampleValue(json.media, named: $0) } ?? (spec.exampleName == nil ? json.media["example"] : nil)
            if let example { response["example"] = example }
        } else if documented.json == nil, documented.key == "204" || documented.object["content"] == nil && documented.key == "205" {
            response["empty"] = true
        }
        return response
    }

    /// A success case's body with the user's values for its members (`--value name=…`), a value
    /// new to the server for the members a create keeps unique, and the members still made up
    /// from the schema recorded, so the end of the run lists them.
    private mutating func completedBody(
        _ value: JSONValue, _ body: ImportedBody, example: String?, method: String, label: String, contractID: String, caseName: String
    ) -> JSONValue {
        guard case .object(var object) = value else { return value }
        for member in object.members {
            guard let given = givenValues[member.key] else { continue }
            object[member.key] = GivenValues.written(given)
        }
        var marked: [String] = []
        let fromExample = (example.flatMap { exampleValue(body.media, named: $0) } ?? body.media["example"] ?? body.media["examples"]) != nil
        if method == "post", !fromExample, case .object(let named) = UniqueMembers(document: document).named(.object(object), schema: body.media["schema"], at: body.pointer.appending("schema")) {
            object = named
        }
        if method == "post" || method == "put" {
            // `POST /flows/` creates a flow.
            let resource = Identifiers.resourceName(ofPath: String(label.split(separator: " ", maxSplits: 1).last ?? ""))
            let result = UniqueMembers(document: document).marked(.object(object), schema: body.media["schema"], at: body.pointer.appending("schema"), resource: resource)
            // A value the user gave names something real: it stays as given.
            if case .object(let markedObject) = result.body {
                for member in markedObject.members where givenValues[member.key] == nil { object[member.key] = member.value }
            }
            marked = result.members.filter { givenValues[$0] == nil }
        }
        if !fromExample {
            for member in object.members where givenValues[member.key] == nil && !marked.contains(member.key) {
                guard case .string = member.value else {
                    if case .number = member.value { record(madeUp: member.key, location: "body", value: member.value, usedBy: "\(contractID)/\(caseName)") }
                    continue
                }
                record(madeUp: member.key, location: "body", value: member.value, usedBy: "\(contractID)/\(caseName)")
            }
        }
        return .object(object)
    }

    /// Whether the document gives a value for the parameter (an example, or its schema's example
    /// or default); otherwise the import makes one up.
    private static func isDocumented(_ parameter: ImportedParameter) -> Bool {
        let schema = parameter.object["schema"]?.objectValue
        return parameter.object["example"] != nil || parameter.object["examples"] != nil || schema?["example"] != nil
            || schema?["default"] != nil || schema?["enum"] != nil || schema?["const"] != nil
    }

    /// The environment variable that gives a required header parameter's value: `x-token` reads
    /// `X_TOKEN`. Listed with the security schemes' variables at the end of the import.
    private mutating func headerVariable(for parameter: ImportedParameter) -> String {
        var name = String(parameter.name.uppercased().unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
        if name.first?.isNumber ?? true { name = "_" + name }
        if headerVariables[name] == nil {
            headerVariables[name] = SecurityVariable(name: name, scheme: "", usage: "the required header '\(parameter.name)', which the document gives no value for")
        }
        return name
    }

    private mutating func record(madeUp parameter: ImportedParameter, value: JSONValue, usedBy: String) {
        record(madeUp: parameter.name, location: parameter.location, value: value, usedBy: usedBy)
    }

    private mutating func record(madeUp name: String, location: String, value: JSONValue, usedBy: String) {
        if let index = madeUp.firstIndex(where: { $0.name == name && $0.location == location && $0.value == value }) {
            madeUp[index].usedBy.append(usedBy)
        } else {
            madeUp.append(MadeUpValue(name: name, location: location, value: value, usedBy: [usedBy]))
        }
    }

    /// A parameter's value for a case: the named example, else its `example`, else the first of
    /// its `examples`, else (when required) one made from its schema.
    private func value(of parameter: ImportedParameter, example name: String?, avoiding errorExamples: Set<String>) -> JSONValue? {
        if let name, let value = exampleValue(parameter.object, named: name) { return value }
        if let value = parameter.object["example"] ?? firstExample(parameter.object, avoiding: errorExamples) { return value }
        if let value = parameter.object["schema"]?.objectValue?["example"] ?? parameter.object["schema"]?.objectValue?["default"] { return value }
        return parameter.required ? samples.value(for: parameter.object["schema"]) : nil
    }

    private func value(of body: ImportedBody, example name: String?, avoiding errorExamples: Set<String>, changing: Bool) -> JSONValue? {
        if let name, let value = exampleValue(body.media, named: name) { return value }
        if let value = body.media["example"] ?? firstExample(body.media, avoiding: errorExamples) { return value }
        return changing ? samples.changingValue(for: body.media["schema"]) : samples.value(for: body.media["schema"])
    }

    private func exampleValue(_ object: JSONObject, named name: String) -> JSONValue? {
        guard let entry = object["examples"]?.objectValue?[name] else { return nil }
        return document.resolved(entry, at: .root)?.0["value"]
    }

    /// The first named example that no error response claims: the default request should succeed.
    private func firstExample(_ object: JSONObject, avoiding errorExamples: Set<String>) -> JSONValue? {
        guard let first = object["examples"]?.objectValue?.members.first(where: { !errorExamples.contains($0.key) }) else { return nil }
        return document.resolved(first.value, at: .root)?.0["value"]
    }

    /// Request values are sent as written: a `${` in an example is text, not a placeholder.
    static func literal(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string): .string(string.replacingOccurrences(of: "${", with: "$${"))
        case .array(let elements): .array(elements.map(literal))
        case .object(let object): .object(JSONObject(object.members.map { JSONObject.Member(key: $0.key, value: literal($0.value)) }))
        default: value
        }
    }

    /// An HTTP header name (RFC 9110 token).
    static func isToken(_ name: String) -> Bool {
        FieldSyntax.isToken(name)
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number, .bool: true
        default: false
        }
    }

    /// OpenAPI's `simple` style: a scalar as is, an array as `a,b,c`, an object as `k,v,k,v`.
    private static func simple(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): .string(items.map(text).joined(separator: ","))
        case .object(let object): .string(object.members.flatMap { [$0.key, text($0.value)] }.joined(separator: ","))
        case .null: .string("")
        default: value
        }
    }

    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.description
        case .bool(let bool): bool ? "true" : "false"
        default: CanonicalJSONWriter(style: .compact).string(value)
        }
    }

    private static func formEncoded(_ value: JSONValue) -> String {
        guard case .object(let object) = value else { return text(value) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return object.members.flatMap { member -> [String] in
            let values = member.value.arrayValue ?? [member.value]
            return values.map { "\(encode(member.key))=\(encode(text($0)))" }
        }.joined(separator: "&")
    }

    private static func regexEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result += "\\" }
            result.append(character)
        }
        return result
    }
}
