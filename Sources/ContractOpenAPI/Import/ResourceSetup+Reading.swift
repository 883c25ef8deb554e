import ContractJSON
import ContractModel

/// What `ResourceSetup` reads of the contracts and the document: which operations make, name and
/// delete an item, and the shapes of paths.
extension ResourceSetup {
    /// A step's request from a contract and its case: the endpoint's method, path, headers and
    /// query with the case's merged over them, and the case's values; never what describes every
    /// request of the endpoint (parameters, the body's schema and media type), which is the
    /// contract's to check.
    /// - Parameter pathValues: values of the path's placeholders the steps made (its parents),
    ///   over the case's own, in name order.
    static func stepRequest(from contract: ImportedContract, case testCase: JSONObject, pathValues: [String: String] = [:]) -> JSONObject {
        var request = contract.value["request"]?.objectValue ?? JSONObject()
        for key in ["parameters", "schema", "contentType"] { request[key] = nil }
        let own = testCase["request"]?.objectValue ?? JSONObject()
        for member in own where member.key != "schema" {
            // The case's headers and query add to the contract's, as when the case itself runs.
            if case .object(var shared)? = request[member.key], case .object(let extra) = member.value {
                for entry in extra { shared[entry.key] = entry.value }
                request[member.key] = .object(shared)
            } else {
                request[member.key] = member.value
            }
        }
        if !pathValues.isEmpty {
            var pathParams = request["pathParams"]?.objectValue ?? JSONObject()
            for (name, value) in pathValues.sorted(by: { $0.key < $1.key }) { pathParams[name] = .string(value) }
            request["pathParams"] = .object(pathParams)
        }
        return request
    }

    /// Whether the path parameter the contract names `placeholder` takes a `${unique:…}` value:
    /// text of any shape of 12 letters and digits, read from the operation's parameter in the
    /// document (a parameter without a schema takes text).
    /// - Parameter value: `${unique:…}` alone, or after a text and `-` (`example-${unique:…}`);
    ///   another value is taken to fit.
    func takesUniqueValue(_ contract: ImportedContract, placeholder: String, value: String = "${unique:id}") -> Bool {
        let text: String
        if value.hasPrefix("${unique:"), value.hasSuffix("}"), value.filter({ $0 == "$" }).count == 1 {
            text = ""
        } else if let range = value.range(of: "-${unique:"), value.hasSuffix("}"), value.filter({ $0 == "$" }).count == 1 {
            text = String(value[..<range.lowerBound])
        } else {
            return true
        }
        let operationPointer = contract.pointer
        let pathItemPointer = JSONPointer(tokens: Array(operationPointer.tokens.dropLast()))
        var candidates: [(JSONValue, JSONPointer)] = []
        for at in [operationPointer, pathItemPointer] {
            guard let list = document.value(at: at)?.objectValue?["parameters"]?.arrayValue else { continue }
            candidates += list.enumerated().map { ($0.element, at.appending("parameters").appending($0.offset)) }
        }
        for (value, at) in candidates {
            guard let (parameter, resolvedAt) = document.resolved(value, at: at), parameter["in"]?.stringValue == "path",
                let name = parameter["name"]?.stringValue, Identifiers.placeholder(name) == placeholder
            else { continue }
            // Swagger 2.0 gives the type on the parameter itself.
            let schemaValue = parameter["schema"] ?? .object(parameter)
            guard let (schema, _) = document.resolved(schemaValue, at: resolvedAt.appending("schema")) else { return true }
            return UniqueMembers.uniqueValue(text, schema: schema, variable: placeholder) != nil
        }
        return true
    }

    /// The schema of the member `name` of the operation's JSON request body, as the document
    /// declares it (through references and `allOf`); nil where the body has no such member.
    /// - Parameter required: only a member the body requires.
    func bodyMember(_ name: String, of contract: ImportedContract, required: Bool = false) -> JSONObject? {
        guard let (schema, at) = bodySchema(of: contract),
            let property = document.declaredProperties(of: schema, at: at).first(where: { $0.name == name }),
            !required || document.requiredProperties(of: schema, at: at).contains(name)
        else { return nil }
        return document.resolved(property.schema, at: property.pointer)?.0
    }

    /// Whether the operation's JSON request body is a list.
    private func takesList(_ contract: ImportedContract) -> Bool {
        guard let (schema, at) = bodySchema(of: contract), let (body, _) = document.resolved(schema, at: at) else { return false }
        return body["type"] == .string("array")
    }

    /// The operation's JSON request body schema in the document, and where it is.
    private func bodySchema(of contract: ImportedContract) -> (JSONValue, JSONPointer)? {
        guard let operation = document.value(at: contract.pointer)?.objectValue, let value = operation["requestBody"],
            let (body, at) = document.resolved(value, at: contract.pointer.appending("requestBody")),
            let json = body["content"]?.objectValue?.members.first(where: { MediaType.isJSON($0.key) }),
            let schema = json.value.objectValue?["schema"]
        else { return nil }
        return (schema, at.appending("content").appending(json.key).appending("schema"))
    }

    /// The property names of the creator's success answer, and of its wrapper if it has one (the
    /// first item, `0`, of an answer that is a list).
    func answerNames(of contract: ImportedContract) -> ([String], (wrapper: String, names: [String])?)? {
        guard let responses = document.value(at: contract.pointer)?.objectValue?["responses"]?.objectValue else { return nil }
        for key in ["201", "200", "202", "2XX", "default"] {
            guard let response = responses[key], let (object, at) = document.resolved(response, at: contract.pointer.appending("responses").appending(key)),
                let content = object["content"]?.objectValue,
                let media = content.members.first(where: { $0.key.lowercased().contains("json") }),
                let schema = media.value.objectValue?["schema"]
            else { continue }
            let schemaPointer = at.appending("content").appending(media.key).appending("schema")
            // A create that takes and answers a list (`POST /deployments/{id}/schedules`): the
            // first item made is read as a wrapper's, at `/0`. Only where the request is a list
            // too: a call sent one item that answers a list (`POST /tags` answering every tag)
            // may answer first an item that was there before, which a teardown would delete.
            if let (list, listAt) = document.resolved(schema, at: schemaPointer), list["type"] == .string("array"), let items = list["items"] {
                let names = document.declaredProperties(of: items, at: listAt.appending("items")).map(\.name)
                guard takesList(contract) else { return ([], nil) }
                return names.isEmpty ? nil : ([], ("0", names))
            }
            let properties = document.declaredProperties(of: schema, at: schemaPointer)
            // Every part that describes the wrapper counts: an envelope's `result` is refined by
            // the operation's own `allOf` part.
            let wrapped = ["data", "result", "item"].lazy.compactMap { wrapper -> (String, [String])? in
                let names = properties.filter { $0.name == wrapper }.flatMap { self.document.declaredProperties(of: $0.schema, at: $0.pointer).map(\.name) }
                return names.isEmpty ? nil : (wrapper, names)
            }.first
            return (properties.map(\.name), wrapped)
        }
        return nil
    }

    // MARK: Reading the contracts

    static func madeUpPathParameters(_ madeUp: [MadeUpValue]) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for value in madeUp where value.location == "path" {
            for use in value.usedBy { result[use, default: []].insert(Identifiers.placeholder(value.name)) }
        }
        return result
    }

    static func successCase(of contract: ImportedContract) -> JSONObject? {
        contract.value["cases"]?.arrayValue?.lazy.compactMap(\.objectValue).first(where: isSuccess)
    }

    static func isWithoutCredentials(_ testCase: JSONObject) -> Bool {
        testCase["name"]?.stringValue == "no-credentials"
    }

    static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .string, .number: true
        default: false
        }
    }

    /// Whether a member is an id the server gives (`id`, `uuid`, `flow_id`), not a name.
    static func isIdentifier(_ member: String) -> Bool {
        ["id", "uuid", "ID", "Id", "_id"].contains(member) || referencedResource(member) != nil
    }

    /// `flow_id`, `flowId`, `flow_uuid` → `flow`; nil for a member that names no resource.
    static func referencedResource(_ member: String) -> String? {
        for suffix in ["_id", "_uuid", "Id", "Uuid", "ID"] where member.hasSuffix(suffix) && member.count > suffix.count {
            var stem = String(member.dropLast(suffix.count))
            // `blockTypeId` → `block_type`, as collections are usually written.
            stem = stem.reduce(into: "") { text, character in
                if character.isUppercase, !text.isEmpty { text += "_" }
                text += character.lowercased()
            }
            return stem
        }
        return nil
    }

    /// Whether the case expects success: every status it accepts is a 2XX.
    static func isSuccess(_ testCase: JSONObject) -> Bool {
        let status = testCase["response"]?.objectValue?["status"]
        let alternatives: [JSONValue] = status?.arrayValue ?? [status].compactMap { $0 }
        return !alternatives.isEmpty && alternatives.allSatisfy {
            switch $0 {
            case .number(let number): (200...299).contains(number.intValue ?? 0)
            case .string(let text): text.uppercased() == "2XX"
            default: false
            }
        }
    }

    /// `/users/{user_id}/posts` → `/users/{}/posts`: placeholder names differ between operations.
    static func shape(_ path: String) -> String {
        var result = ""
        var inside = false
        for character in path {
            if character == "{" { inside = true; result.append("{") } else if character == "}" { inside = false; result.append("}") } else if !inside { result.append(character) }
        }
        return result.hasSuffix("/") && result.count > 1 ? String(result.dropLast()) : result
    }

    /// `/flows/` and `flow_id` → `/flows/{flow_id}`: the path of one item of a collection.
    static func itemPath(in collection: String, _ placeholder: String) -> String {
        collection + (collection.hasSuffix("/") ? "" : "/") + "{\(placeholder)}"
    }

    static func placeholder(in segment: String) -> String? {
        guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else { return nil }
        return String(segment.dropFirst().dropLast())
    }

    /// `/users/{}/posts` → `post`: the last literal segment, singular.
    static func resourceName(_ collection: String) -> String {
        Identifiers.resourceName(ofPath: collection)
    }

    /// The case's keys in the order a person reads them: name, setup, request, response, then
    /// what the teardown captures and does.
    static func reordered(_ testCase: JSONObject) -> JSONObject {
        let order = ["name", "setup", "request", "response", "capture", "teardown"]
        let known = order.compactMap { key in testCase[key].map { JSONObject.Member(key: key, value: $0) } }
        return JSONObject(known + testCase.members.filter { !order.contains($0.key) })
    }
}
