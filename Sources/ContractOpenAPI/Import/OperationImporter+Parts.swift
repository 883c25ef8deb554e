import Foundation
import ContractJSON
import ContractModel

/// A parameter of an operation, path-level ones merged in.
struct ImportedParameter {
    var name: String
    var location: String
    var required: Bool
    var object: JSONObject
    var pointer: JSONPointer
}

/// The request body an operation takes.
struct ImportedBody {
    enum Mode { case json, form, text, unsupported }
    var mode: Mode
    var mediaType: String
    var required: Bool
    var media: JSONObject
    var pointer: JSONPointer
}

/// A documented response: its status key (`200`, `4XX`, `default`) and its JSON content, if any.
struct ImportedResponse {
    var key: String
    var object: JSONObject
    var pointer: JSONPointer
    /// The JSON media type and its object, when the response has one.
    var json: (type: String, media: JSONObject, pointer: JSONPointer)?
    /// The media type of a response without JSON content (`text/csv`, `application/xml`): its
    /// Content-Type is checked, its body is not.
    var otherType: String?

    /// The contract's status: an integer, or a class such as `"4XX"`.
    var status: JSONValue? {
        if let code = Int(key), (100...599).contains(code) { return .number(JSONNumber(code)) }
        let upper = key.uppercased()
        if upper.count == 3, upper.hasSuffix("XX"), let first = upper.first, ("1"..."5").contains(first) { return .string(upper) }
        return nil
    }

    var isSuccess: Bool { key.hasPrefix("2") }
}

/// One case to write: which response it expects and which request values lead there.
struct CaseSpec {
    var name: String
    var response: ImportedResponse
    /// A named example shared by the request and the response, or nil for the default values.
    var exampleName: String?
    var withoutCredentials = false
    var order: Int
    /// Other documented statuses the case accepts: successes whose content is the response's
    /// (a create that answers `200` for an existing item and `201` for a new one), or `403`
    /// beside `401` for a request without credentials.
    var alsoAccepted: [JSONValue] = []
}

extension OperationImporter {
    /// The operation's parameters and its path item's (given with where the path item was read,
    /// which for an operation that is a `$ref` is not the parent of the operation's own place).
    func parameters(of operation: JSONObject, pathItem: (JSONObject, JSONPointer), at pointer: JSONPointer) -> [ImportedParameter] {
        var result: [ImportedParameter] = []
        let (pathItem, pathItemPointer) = pathItem
        let pathLevel = (pathItem["parameters"]?.arrayValue ?? []).enumerated().map { ($0.element, pathItemPointer.appending("parameters").appending($0.offset)) }
        let own = (operation["parameters"]?.arrayValue ?? []).enumerated().map { ($0.element, pointer.appending("parameters").appending($0.offset)) }
        for (value, at) in pathLevel + own {
            guard let (object, resolvedAt) = document.resolved(value, at: at),
                let name = object["name"]?.stringValue, let location = object["in"]?.stringValue
            else { continue }
            let parameter = ImportedParameter(
                name: name, location: location, required: object["required"]?.boolValue ?? (location == "path"), object: object, pointer: resolvedAt)
            // An operation's parameter replaces the path's of the same name and location.
            result.removeAll { $0.name == name && $0.location == location }
            result.append(parameter)
        }
        return result
    }

    func requestBody(of operation: JSONObject, at pointer: JSONPointer) -> ImportedBody? {
        guard let value = operation["requestBody"], let (body, at) = document.resolved(value, at: pointer.appending("requestBody")),
            let content = body["content"]?.objectValue, let first = content.members.first
        else { return nil }
        let required = body["required"]?.boolValue ?? false
        let contentPointer = at.appending("content")
        if let json = content.members.first(where: { MediaType.isJSON($0.key) }), let media = json.value.objectValue {
            return ImportedBody(mode: .json, mediaType: json.key, required: required, media: media, pointer: contentPointer.appending(json.key))
        }
        if let form = content.members.first(where: { $0.key.lowercased().hasPrefix("application/x-www-form-urlencoded") }), let media = form.value.objectValue {
            return ImportedBody(mode: .form, mediaType: form.key, required: required, media: media, pointer: contentPointer.appending(form.key))
        }
        if let text = content.members.first(where: { $0.key.lowercased().hasPrefix("text/") }), let media = text.value.objectValue {
            return ImportedBody(mode: .text, mediaType: text.key, required: required, media: media, pointer: contentPointer.appending(text.key))
        }
        // `*/*` accepts anything, JSON included: a body with a schema is sent as JSON.
        if let any = content.members.first(where: { ["*/*", "application/*"].contains($0.key.lowercased()) }), let media = any.value.objectValue,
            media["schema"] != nil
        {
            return ImportedBody(mode: .json, mediaType: "application/json", required: required, media: media, pointer: contentPointer.appending(any.key))
        }
        return ImportedBody(mode: .unsupported, mediaType: first.key, required: required, media: JSONObject(), pointer: contentPointer.appending(first.key))
    }

    mutating func responses(of operation: JSONObject, at pointer: JSONPointer, label: String) -> [ImportedResponse] {
        var result: [ImportedResponse] = []
        for member in operation["responses"]?.objectValue ?? JSONObject() {
            guard let (object, at) = document.resolved(member.value, at: pointer.appending(member.key)) else { continue }
            if let links = object["links"]?.objectValue, !links.isEmpty {
                diagnostics.append(document.warning(
                    "\(label): links (\(links.keys.joined(separator: ", "))) cannot be expressed in a contract; skipped", at: pointer.appending(member.key).appending("links")))
            }
            var response = ImportedResponse(key: member.key, object: object, pointer: at)
            let content = object["content"]?.objectValue ?? JSONObject()
            if let json = content.members.first(where: { MediaType.isJSON($0.key) }), let media = json.value.objectValue {
                response.json = (json.key, media, at.appending("content").appending(json.key))
            } else if let xml = content.members.first(where: { $0.key.lowercased().contains("xml") }) {
                diagnostics.append(document.warning(
                    "\(label): XML bodies cannot be checked by a contract; the \(member.key) response's body is not checked", at: at.appending("content").appending(xml.key)))
                response.otherType = xml.key
            } else if let other = content.members.first {
                diagnostics.append(document.warning(
                    "\(label): '\(other.key)' bodies are not checked by an imported contract (only JSON ones are); the \(member.key) response's Content-Type is",
                    at: at.appending("content").appending(other.key)))
                response.otherType = other.key
            }
            result.append(response)
        }
        return result
    }

    /// Which responses get a case: a named example shared by request and response pairs them; the
    /// default values go to the first success status; an operation that needs credentials and
    /// documents 401 (or 403) gets a case without them.
    func caseSpecs(
        responses: [ImportedResponse], parameters: [ImportedParameter], body: ImportedBody?, credentials: Credentials, allowsAnonymous: Bool = false
    ) -> [CaseSpec] {
        var specs: [CaseSpec] = []
        var requestNames: [String] = []
        for parameter in parameters { requestNames += Self.exampleNames(parameter.object) }
        if let body { requestNames += Self.exampleNames(body.media) }
        var seen: Set<String> = []
        for name in requestNames where seen.insert(name).inserted {
            let answering = responses.enumerated().filter { $0.element.status != nil && ($0.element.json.map { Self.exampleNames($0.media).contains(name) } ?? false) }
            for (order, response) in answering {
                // The example's own name, as a person calls the case; with the status's word when
                // the example is shown for several statuses.
                let caseName = answering.count == 1 ? name : "\(Identifiers.statusWord(response.key))-\(name)"
                specs.append(CaseSpec(name: Identifiers.identifier(caseName), response: response, exampleName: name, order: order))
            }
        }
        let successes = responses.enumerated().filter { $0.element.isSuccess && $0.element.status != nil }
        if let (order, success) = successes.min(by: { $0.element.key < $1.element.key }), !specs.contains(where: { $0.response.isSuccess }) {
            let others = successes.filter { $0.element.key != success.key && Self.sameContent($0.element, success) }
            specs.append(CaseSpec(
                name: Identifiers.statusWord(success.key), response: success, exampleName: nil, order: order,
                alsoAccepted: others.compactMap(\.element.status)))
        }
        // An operation that also takes requests without credentials (`security: [{}]`) has no
        // refusal to check.
        if !credentials.isEmpty, !allowsAnonymous,
            let (order, denied) = responses.enumerated().first(where: { $0.element.key == "401" }) ?? responses.enumerated().first(where: { $0.element.key == "403" }),
            !specs.contains(where: { $0.response.key == denied.key })
        {
            // Servers answer 401 or 403 for a missing credential, and documents list both.
            let forbidden = denied.key == "401" ? responses.first(where: { $0.key == "403" && Self.sameContent($0, denied) })?.status : nil
            specs.append(CaseSpec(
                name: "no-credentials", response: denied, exampleName: nil, withoutCredentials: true, order: order,
                alsoAccepted: forbidden.map { [$0] } ?? []))
        }
        return specs
    }

    /// Whether two responses describe the same body: the same JSON schema as written, or no JSON.
    private static func sameContent(_ one: ImportedResponse, _ other: ImportedResponse) -> Bool {
        one.json?.media["schema"] == other.json?.media["schema"] && one.otherType == other.otherType
    }

    static func exampleNames(_ object: JSONObject) -> [String] {
        object["examples"]?.objectValue?.keys ?? []
    }
}
