import ContractJSON
import ContractModel
import ContractSchema

/// The members of a body that creates something which a server keeps unique (a name, a slug, a
/// key): sent with a value no earlier case or run has used, `"my-flow-${unique:flow_name}"`, so the
/// second create of a run, and every create of the next night's run, is not refused with 409
/// "already exists". Only members whose schema takes any text of that length: an `enum`, a
/// `pattern` or a `format` (but `email`) keeps the value as made.
struct UniqueMembers {
    let document: OpenAPIDocument

    /// Names servers commonly keep unique among the items of a collection.
    static let names: Set<String> = [
        "name", "slug", "key", "tag", "title", "username", "login", "handle", "email", "label", "display_name", "displayName", "identifier",
    ]

    /// `body` with each such top-level member marked, and the names of the members marked.
    /// - Parameters:
    ///   - schema: the body's schema in the document, at `pointer`.
    ///   - resource: the singular name of what is created (`flow`), for the placeholder's name.
    func marked(_ body: JSONValue, schema: JSONValue?, at pointer: JSONPointer, resource: String) -> (body: JSONValue, members: [String]) {
        guard case .object(var object) = body, let schema else { return (body, []) }
        let properties = self.properties(of: schema, at: pointer)
        var marked: [String] = []
        for member in object.members where Self.names.contains(member.key) {
            guard case .string(let text) = member.value, let property = properties[member.key],
                let value = Self.uniqueValue(text, schema: property, variable: Identifiers.placeholder(resource + "_" + member.key))
            else { continue }
            object[member.key] = .string(value)
            marked.append(member.key)
        }
        return (.object(object), marked)
    }

    /// `body` with a `name` it leaves out although its schema has one: a create made from the
    /// schema's required members only may make an item servers refuse without a name (an
    /// "anonymous" one), and a named item is what a user makes.
    func named(_ body: JSONValue, schema: JSONValue?, at pointer: JSONPointer) -> JSONValue {
        // Only a name the member takes as written: one its schema refuses (an `enum`, a
        // `maxLength` under 7) would have the whole body left out as not matching, and a
        // `readOnly` one is the server's to set.
        guard case .object(var object) = body, object["name"] == nil, let schema,
            let property = properties(of: schema, at: pointer)["name"], property["readOnly"] != .bool(true),
            Self.takes("example", schema: property)
        else { return body }
        object["name"] = .string("example")
        return .object(object)
    }

    /// The value with a unique part for a member of this schema, or nil when the schema would not
    /// take one.
    static func uniqueValue(_ text: String, schema given: JSONObject, variable: String) -> String? {
        let unique = "${unique:\(variable)}"
        guard let schema = textSchema(given) else { return nil }
        guard schema["enum"] == nil, schema["const"] == nil else { return nil }
        if let format = schema["format"]?.stringValue {
            return format == "email" ? "\(unique)@example.com" : nil
        }
        let maximum = schema["maxLength"]?.numberValue?.intValue ?? Int.max
        let minimum = schema["minLength"]?.numberValue?.intValue ?? 0
        // A pattern must take the value whatever its unique part: tried with the extremes of its
        // shape (letters only, digits after the first letter, both) and the stand-in fixtures use.
        let pattern = schema["pattern"]?.stringValue.flatMap { try? ECMARegex($0) }
        if schema["pattern"] != nil, pattern == nil { return nil }
        let stands = ["abcdefghijkl", "a00000000000", "a1b2c3d4e5f6", "zzzzzzzzzzzz", "z99999999999", UniqueValues.stable.value(for: variable)]
        func fits(_ prefix: String) -> Bool {
            stands.allSatisfy { stand in
                let candidate = prefix + stand
                return candidate.count <= maximum && candidate.count >= minimum && (pattern?.matches(candidate) ?? true)
            }
        }
        if !text.isEmpty, fits(text + "-") { return text + "-" + unique }
        return fits("") ? unique : nil
    }

    /// Whether a member of this schema takes `text` as it is: text with no `enum`, `const` or
    /// `format`, within its lengths and `pattern`.
    static func takes(_ text: String, schema given: JSONObject) -> Bool {
        guard let schema = textSchema(given), schema["enum"] == nil, schema["const"] == nil, schema["format"] == nil else { return false }
        if let maximum = schema["maxLength"]?.numberValue?.intValue, text.count > maximum { return false }
        if let minimum = schema["minLength"]?.numberValue?.intValue, text.count < minimum { return false }
        // A pattern the import cannot read is left out of the contract (`^[a-z\:]+$`): it refuses nothing.
        guard let pattern = schema["pattern"]?.stringValue, let regex = try? ECMARegex(pattern) else { return true }
        return regex.matches(text)
    }

    /// The schema that describes a member's text: its own where its type takes a string (or it
    /// gives none), or its one text alternative where it says "text or null" as `anyOf` or `oneOf`
    /// (`{"anyOf": [{"type": "string", "pattern": …}, {"type": "null"}]}`, as Pydantic writes an
    /// optional string). Nil where the member takes no text.
    static func textSchema(_ schema: JSONObject) -> JSONObject? {
        for keyword in ["anyOf", "oneOf"] {
            guard let branches = schema[keyword]?.arrayValue?.compactMap(\.objectValue), !branches.isEmpty else { continue }
            let texts = branches.filter { $0["type"] != .string("null") }
            guard texts.count == 1, let text = texts.first, text["type"] == .string("string") else { return nil }
            return text
        }
        if let type = schema["type"], type != .string("string"), !(type.arrayValue?.contains(.string("string")) ?? false) { return nil }
        return schema
    }

    /// The properties a schema declares, through references and `allOf`, each resolved; its
    /// own before its parts', the first of a name kept.
    private func properties(of schema: JSONValue, at pointer: JSONPointer) -> [String: JSONObject] {
        var result: [String: JSONObject] = [:]
        for property in document.declaredProperties(of: schema, at: pointer) where result[property.name] == nil {
            if let (object, _) = document.resolved(property.schema, at: property.pointer) { result[property.name] = object }
        }
        return result
    }
}
