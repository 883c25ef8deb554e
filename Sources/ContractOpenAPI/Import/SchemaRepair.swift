import ContractJSON
import ContractModel
import ContractSchema

/// What published documents get wrong in their schemas, mended to the meaning the author plainly
/// had, each mend a warning at its place in the document: other tools read these documents, so
/// the import goes on where a strict reader would stop.
struct SchemaRepair {
    let document: OpenAPIDocument
    private(set) var warnings: [Diagnostic] = []
    private let contradictions: AllOfContradictions
    private let memberSchemas: AllOfMemberSchemas
    /// Contradiction mends already warned about: a schema converted twice is warned once.
    private var mended: Set<JSONPointer> = []

    init(document: OpenAPIDocument) {
        self.document = document
        contradictions = AllOfContradictions(document: document)
        memberSchemas = AllOfMemberSchemas(document: document)
    }

    /// Where the schemas are that the `allOf` at `pointer` holds the members no part describes
    /// to (`unevaluatedProperties`), for the converter to convert: the schema-valued
    /// `additionalProperties` ``AllOfMemberSchemas`` left out of it, its parts and their bases.
    func memberSchemaSources(at pointer: JSONPointer) -> [JSONPointer]? {
        memberSchemas.unevaluated[pointer]
    }

    /// One converted schema object, at `pointer` in the document.
    mutating func repair(_ schema: JSONObject, at pointer: JSONPointer) -> JSONObject {
        var schema = schema
        // Vendor extensions annotate for other tools; their values may hold references to
        // components that no contract file has.
        schema = JSONObject(schema.members.filter { !$0.key.hasPrefix("x-") })
        if document.version.isDraft2020, schema["nullable"] != nil || schema["exclusiveMinimum"]?.boolValue != nil
            || schema["exclusiveMaximum"]?.boolValue != nil
        {
            warnings.append(document.warning(
                "OpenAPI 3.0's 'nullable' or boolean exclusive bounds in a 3.1 document: read with their 3.0 meaning", at: pointer))
            schema = SchemaConverter.rewrite30(schema)
        }
        if let required = schema["required"] {
            let names = required.arrayValue?.compactMap(\.stringValue) ?? []
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            if required.arrayValue?.count != unique.count {
                warnings.append(document.warning(
                    required.arrayValue == nil
                        ? "'required' must be an array of property names; left out"
                        : "'required' lists a name twice or holds a value that is no name; each name is kept once", at: pointer.appending("required")))
                schema["required"] = required.arrayValue == nil ? nil : .array(unique.map(JSONValue.string))
            }
        }
        if let recursive = schema["$recursiveRef"] {
            // Draft 2019-09's recursion: without an extending schema, a reference to this resource's root.
            warnings.append(document.warning("'$recursiveRef' (draft 2019-09) is read as '$ref' to the same place", at: pointer.appending("$recursiveRef")))
            schema["$recursiveRef"] = nil
            if schema["$ref"] == nil { schema["$ref"] = recursive }
        }
        if schema["$recursiveAnchor"] != nil { schema["$recursiveAnchor"] = nil }
        fitEnumToType(&schema, at: pointer)
        leaveOutContradictions(&schema, at: pointer)
        closeAllOfOnce(&schema, at: pointer)
        leaveOutMemberSchema(&schema, at: pointer)
        return schema
    }

    /// A schema-valued `additionalProperties` that holds the properties other `allOf` parts
    /// describe to its schema (``AllOfMemberSchemas``); the converter puts it back as the
    /// `allOf`'s `unevaluatedProperties`.
    private mutating func leaveOutMemberSchema(_ schema: inout JSONObject, at pointer: JSONPointer) {
        guard let message = memberSchemas.leftOut[pointer], schema["additionalProperties"] != nil else { return }
        schema["additionalProperties"] = nil
        let at = pointer.appending("additionalProperties")
        if mended.insert(at).inserted { warnings.append(document.warning(message, at: at)) }
    }

    /// What ``AllOfContradictions`` found no value can satisfy: an envelope's `type` that a more
    /// specific part contradicts, or a part that contradicts the ones before it.
    private mutating func leaveOutContradictions(_ schema: inout JSONObject, at pointer: JSONPointer) {
        if let message = contradictions.droppedTypes[pointer] {
            for keyword in ["type", "nullable", "anyOf", "oneOf"] { schema[keyword] = nil }
            if mended.insert(pointer).inserted { warnings.append(document.warning(message, at: pointer)) }
        }
        guard case .array(let parts)? = schema["allOf"], parts.count == document.value(at: pointer.appending("allOf"))?.arrayValue?.count else { return }
        var kept: [JSONValue] = []
        for (index, part) in parts.enumerated() {
            let partPointer = pointer.appending("allOf").appending(index)
            guard let message = contradictions.droppedParts[partPointer] else {
                kept.append(part)
                continue
            }
            if mended.insert(partPointer).inserted { warnings.append(document.warning(message, at: partPointer)) }
        }
        schema["allOf"] = .array(kept)
    }

    /// `allOf: [{properties: {data}, additionalProperties: false}, {properties: {page}}]`: each part
    /// sees only its own properties, so no value can have both `data` and `page`. The author meant
    /// the object the parts make together to be closed, which is `unevaluatedProperties: false`.
    private mutating func closeAllOfOnce(_ schema: inout JSONObject, at pointer: JSONPointer) {
        guard case .array(var parts)? = schema["allOf"], !parts.isEmpty else { return }
        var closed = false
        // The same beside `allOf`: this schema's own `additionalProperties` sees only its own properties.
        if schema["additionalProperties"] == .bool(false), parts.contains(where: { $0.objectValue?["properties"] != nil || $0.objectValue?["$ref"] != nil }) {
            schema["additionalProperties"] = nil
            closed = true
            warnings.append(document.warning(
                "'additionalProperties: false' beside 'allOf' rejects the properties its parts describe; read as the whole object closed ('unevaluatedProperties: false')",
                at: pointer.appending("additionalProperties")))
        }
        for (index, part) in parts.enumerated() where parts.count > 1 {
            guard var object = part.objectValue, object["additionalProperties"] == .bool(false) else { continue }
            object["additionalProperties"] = nil
            parts[index] = .object(object)
            closed = true
            warnings.append(document.warning(
                "'additionalProperties: false' inside one 'allOf' part rejects the properties of the others; read as the whole object closed ('unevaluatedProperties: false')",
                at: pointer.appending("allOf").appending(index).appending("additionalProperties")))
        }
        guard closed else { return }
        schema["allOf"] = .array(parts)
        if schema["unevaluatedProperties"] == nil { schema["unevaluatedProperties"] = false }
    }

    /// `type: integer` with `enum: ["1", "2"]`, `type: string` with `enum: [true, false]` (YAML's
    /// `on`/`off`): values of another JSON type than the schema's, which no value could match;
    /// each is read as the value of the declared type it spells.
    private mutating func fitEnumToType(_ schema: inout JSONObject, at pointer: JSONPointer) {
        guard let type = schema["type"]?.stringValue else { return }
        for key in ["enum", "const"] {
            guard let value = schema[key] else { continue }
            let values = key == "enum" ? value.arrayValue ?? [] : [value]
            let fitted = values.map { Self.fit($0, to: type) }
            guard fitted != values else { continue }
            warnings.append(document.warning(
                "'\(key)' holds values of another type than '\(type)'; each is read as the \(type) it spells", at: pointer.appending(key)))
            schema[key] = key == "enum" ? .array(fitted) : fitted[0]
        }
    }

    private static func fit(_ value: JSONValue, to type: String) -> JSONValue {
        switch (type, value) {
        case ("string", .number(let number)): return .string(number.description)
        case ("string", .bool(let bool)): return .string(bool ? "true" : "false")
        case ("integer", .string(let text)), ("number", .string(let text)):
            guard let number = JSONNumber(text), type == "number" || number.isInteger else { return value }
            return .number(number)
        case ("boolean", .string("true")): return .bool(true)
        case ("boolean", .string("false")): return .bool(false)
        default: return value
        }
    }

    /// The draft 2020-12 meta-schema, for what no rule above mends: a schema keyword whose value
    /// is of no use (`type: 7`, `minLength: "x"`) is left out, with the meta-schema's reason.
    private static let metaSchema = try? JSONSchema(
        compiling: SchemaDialect.draft2020_12.rawValue, registry: SchemaRegistry(), defaultDialect: .draft2020_12)

    /// `schema` (a whole converted schema, at `pointer` in the document) with every member the
    /// meta-schema rejects left out.
    mutating func removeInvalidKeywords(_ schema: JSONValue, at pointer: JSONPointer) -> JSONValue {
        guard let metaSchema = Self.metaSchema else { return schema }
        var schema = schema
        // Each pass removes the deepest members named by errors; removing one can only help the rest.
        for _ in 0..<8 {
            let errors = metaSchema.validate(schema).errors.mostSpecific()
            guard !errors.isEmpty else { return schema }
            var removed = false
            for error in errors.sorted(by: { $0.instanceLocation.tokens.count > $1.instanceLocation.tokens.count }) {
                // The member whose value is wrong: at the error, or the keyword holding it.
                var target = error.instanceLocation
                if target.isRoot { continue }
                if target.tokens.count >= 2, Int(target.tokens[target.tokens.count - 1]) != nil { target = target.parent ?? target }
                guard Self.remove(target, from: &schema) else { continue }
                removed = true
                let at = JSONPointer(tokens: pointer.tokens + target.tokens)
                warnings.append(document.warning("not a valid JSON Schema keyword, left out: \(error.message)", at: at))
            }
            if !removed { return .bool(true) }
        }
        return schema
    }

    /// Removes the member at `pointer` (an object member, or an array element) from `value`.
    private static func remove(_ pointer: JSONPointer, from value: inout JSONValue) -> Bool {
        guard let last = pointer.tokens.last else { return false }
        let parentTokens = Array(pointer.tokens.dropLast())
        return modify(&value, at: parentTokens[...]) { parent in
            switch parent {
            case .object(var object):
                guard object[last] != nil else { return false }
                object[last] = nil
                parent = .object(object)
                return true
            case .array(var elements):
                guard let index = Int(last), elements.indices.contains(index) else { return false }
                elements.remove(at: index)
                parent = .array(elements)
                return true
            default:
                return false
            }
        }
    }

    /// Changes the value at `tokens` in place; whether it was there and `change` changed it.
    static func modify(_ value: inout JSONValue, at tokens: ArraySlice<String>, _ change: (inout JSONValue) -> Bool) -> Bool {
        guard let first = tokens.first else { return change(&value) }
        switch value {
        case .object(var object):
            guard var child = object[first] else { return false }
            let changed = modify(&child, at: tokens.dropFirst(), change)
            object[first] = child
            value = .object(object)
            return changed
        case .array(var elements):
            guard let index = Int(first), elements.indices.contains(index) else { return false }
            var child = elements[index]
            let changed = modify(&child, at: tokens.dropFirst(), change)
            elements[index] = child
            value = .array(elements)
            return changed
        default:
            return false
        }
    }
}
