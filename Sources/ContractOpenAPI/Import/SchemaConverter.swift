import ContractJSON
import ContractModel

/// OpenAPI schemas to JSON Schema 2020-12 as the contracts use it.
///
/// 3.0's dialect is rewritten keyword by keyword: `nullable` adds `null` to the type (or to the
/// `enum`), boolean `exclusiveMinimum`/`exclusiveMaximum` become the 2020-12 numbers, `example`
/// becomes `examples`. For both versions, a reference to a schema becomes a reference to a shared
/// file under `schemas/`: `#/components/schemas/Name` to `schemas/Name.json`, and a schema in
/// another file of a split document (or anywhere else in the document) to a file named after its
/// place (``SharedSchemaNames``). So each is written once, however often it is referred to, and
/// recursive schemas stay recursive, across files too; the caller converts each shared schema in
/// turn (``sharedInOrder``), which keeps the conversion's depth that of one schema, not that of a
/// chain of files. Keywords that only annotate (`discriminator`, `xml`, `readOnly`) are kept: a
/// validator ignores them; vendor extensions (`x-…`) are left out, as their values may refer to
/// what no contract has. What the document gets wrong is mended (``SchemaRepair``).
struct SchemaConverter {
    let document: OpenAPIDocument
    /// Where in the document each shared schema referred to so far is, in the order first
    /// referred to, for a caller working through them as they grow.
    private(set) var sharedInOrder: [JSONPointer] = []
    private var shared: Set<JSONPointer> = []
    /// What the conversion had to give up or mend, located in the document.
    var warnings: [Diagnostic] { ownWarnings + repair.warnings }
    private var ownWarnings: [Diagnostic] = []
    private var repair: SchemaRepair
    private var names: SharedSchemaNames

    init(document: OpenAPIDocument) {
        self.document = document
        repair = SchemaRepair(document: document)
        names = SharedSchemaNames(document: document)
    }

    /// The schema at `pointer`, for a file `depth` folders below the output folder.
    mutating func convert(_ schema: JSONValue, at pointer: JSONPointer, depth: Int) -> JSONValue {
        let result = repair.removeInvalidKeywords(
            convert(schema, at: pointer, prefix: String(repeating: "../", count: depth) + "schemas/"), at: pointer)
        return result
    }

    /// The shared schema at `target` (one of ``sharedInOrder``), for its file under `schemas/`.
    mutating func convertShared(_ target: JSONPointer) -> JSONValue? {
        guard let schema = document.value(at: target) else { return nil }
        let result = repair.removeInvalidKeywords(convert(schema, at: target, prefix: ""), at: target)
        return result
    }

    /// The output path (`schemas/Pet.json`) of the shared schema at `target`, one of ``sharedInOrder``.
    func sharedPath(of target: JSONPointer) -> String {
        "schemas/" + (names.given(target) ?? "")
    }

    /// Each shared schema's output path (`schemas/pet.json`), and where in the document it was
    /// converted from (`/x-contract-files/pet.yaml`, `/components/schemas/Pet`).
    var sharedSchemaSources: [String: JSONPointer] {
        Dictionary(uniqueKeysWithValues: sharedInOrder.map { (sharedPath(of: $0), $0) })
    }

    /// For a reference to a schema: its shared file (and the place in it), as the file at
    /// `prefix` refers to it; the target joins ``sharedInOrder``. Nil for a reference to nowhere
    /// (already a warning), to another file (idem), or to a value that is no schema.
    private mutating func sharedReference(_ reference: String, prefix: String) -> String? {
        guard let target = OpenAPIDocument.localPointer(reference), let value = document.value(at: target) else { return nil }
        let file: JSONPointer
        var rest = JSONPointer.root
        if target.tokens.count >= 3, target.tokens.starts(with: ["components", "schemas"]) {
            // Into a component: its file, and the place in it (`Wrap.json#/properties/y`).
            file = JSONPointer(tokens: Array(target.tokens.prefix(3)))
            rest = JSONPointer(tokens: Array(target.tokens.dropFirst(3)))
        } else {
            // Anything else is shared as the very schema referred to: a place inside a bundled file
            // need not be a schema (`common.yaml` holding `Error`), so its file cannot stand in.
            switch value {
            case .object, .bool: file = target
            default: return nil
            }
        }
        if shared.insert(file).inserted { sharedInOrder.append(file) }
        return prefix + names.fileName(of: file) + (rest.isRoot ? "" : rest.uriFragment)
    }

    private mutating func convert(_ schema: JSONValue, at pointer: JSONPointer, prefix: String) -> JSONValue {
        guard case .object(let object) = schema else { return schema }  // `true`, `false`
        if let reference = object["$ref"]?.stringValue {
            if let file = sharedReference(reference, prefix: prefix) {
                var converted = JSONObject()
                converted["$ref"] = .string(file)
                // 3.0 ignores everything next to `$ref`; 3.1 applies it alongside.
                if document.version.isDraft2020 {
                    for member in convertMembers(object, at: pointer, prefix: prefix) where member.key != "$ref" {
                        converted[member.key] = member.value
                    }
                }
                return .object(converted)
            }
            // A value that is no schema (`#/info/title`) takes the reference's place as it is, and
            // is then left out by the meta-schema's check, with its reason.
            if let target = OpenAPIDocument.localPointer(reference), let value = document.value(at: target) { return value }
        }
        // A reference to nowhere, or to another file (already a warning from the document): what
        // it would describe is left out, and the keywords beside it still apply.
        let kept = object["$ref"]?.stringValue == nil ? object : JSONObject(object.members.filter { $0.key != "$ref" })
        var converted = JSONObject(convertMembers(kept, at: pointer, prefix: prefix))
        Self.discriminate(&converted, original: object, components: document.root["components"]?.objectValue?["schemas"]?.objectValue ?? JSONObject(), document: document)
        // Contract schemas refer to each other by relative file paths; an `$id` would move their base.
        converted["$id"] = nil
        // Mended first: 3.0's `nullable` may wrap `allOf` into an `anyOf` that the mends must see through.
        converted = repair.repair(converted, at: pointer)
        if converted["unevaluatedProperties"] == nil, let sources = repair.memberSchemaSources(at: pointer) {
            var schemas: [JSONValue] = []
            for source in sources {
                guard let value = document.value(at: source) else { continue }
                let schema = convert(value, at: source, prefix: prefix)
                if !schemas.contains(schema) { schemas.append(schema) }
            }
            if schemas.count == 1 {
                converted["unevaluatedProperties"] = schemas[0]
            } else if !schemas.isEmpty {
                converted["unevaluatedProperties"] = ["allOf": .array(schemas)]
            }
        }
        if !document.version.isDraft2020 { converted = Self.rewrite30(converted) }
        if let example = converted["example"] {
            converted["example"] = nil
            if converted["examples"] == nil { converted["examples"] = .array([example]) }
        }
        return .object(converted)
    }

    /// Subschemas converted, every other value as written.
    private mutating func convertMembers(_ object: JSONObject, at pointer: JSONPointer, prefix: String) -> [JSONObject.Member] {
        object.members.map { member in
            let at = pointer.appending(member.key)
            switch (member.key, member.value) {
            case (let key, .object(let map)) where Self.schemaMaps.contains(key):
                return JSONObject.Member(key: key, value: .object(JSONObject(map.members.map {
                    JSONObject.Member(key: $0.key, value: convert($0.value, at: at.appending($0.key), prefix: prefix))
                })))
            case (let key, .array(let elements)) where Self.schemaArrays.contains(key) || key == "items":
                var kept: [JSONValue] = []
                for (offset, element) in elements.enumerated() {
                    let elementPointer = at.appending(offset)
                    if key == "allOf" && refersBack(element, from: pointer) {
                        ownWarnings.append(document.warning(
                            "this 'allOf' refers back to a schema whose 'oneOf'/'anyOf' lists this one, so each would apply the other without end; left out (the base applies where this schema is reached through it)",
                            at: elementPointer))
                        continue
                    }
                    kept.append(convert(element, at: elementPointer, prefix: prefix))
                }
                return JSONObject.Member(key: key, value: .array(kept))
            case (let key, let value) where Self.schemaValues.contains(key):
                return JSONObject.Member(key: key, value: convert(value, at: at, prefix: prefix))
            default:
                return member
            }
        }
    }

    /// Whether `entry`, an `allOf` entry of the schema at `pointer`, refers to a base `P` with
    /// `oneOf: [this schema, …]` (a polymorphic base written without a discriminator): `P` applies
    /// this schema, which applies `P` to the same value, without end. Only a shared schema (a
    /// component, or one in another file) can be such a branch, being referred to by its place.
    private func refersBack(_ entry: JSONValue, from pointer: JSONPointer) -> Bool {
        guard let reference = entry.objectValue?["$ref"]?.stringValue, let base = OpenAPIDocument.localPointer(reference),
            case .object(let object)? = document.value(at: base)
        else { return false }
        return ["oneOf", "anyOf"].contains { combinator in
            (object[combinator]?.arrayValue ?? []).contains { branch in
                branch.objectValue?["$ref"]?.stringValue.flatMap(OpenAPIDocument.localPointer) == pointer
            }
        }
    }

    /// Keywords whose value maps names to subschemas: their keys are names, never keywords.
    static let schemaMaps: Set<String> = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]
    private static let schemaArrays: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    private static let schemaValues: Set<String> = [
        "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties", "additionalItems", "contentSchema",
    ]

    /// A `discriminator` over `oneOf`/`anyOf` branches that are component references: each branch
    /// also requires its discriminator value. Branches usually share a base (`allOf: [Pet, …]`), so
    /// without it a cat is also a valid dog and `oneOf` rejects every real value. The value is the
    /// `mapping` key that names the branch, else the component's name, as OpenAPI defines it.
    private static func discriminate(_ converted: inout JSONObject, original: JSONObject, components: JSONObject, document: OpenAPIDocument) {
        guard let discriminator = original["discriminator"]?.objectValue, let property = discriminator["propertyName"]?.stringValue else { return }
        let mapping = discriminator["mapping"]?.objectValue ?? JSONObject()
        for combinator in ["oneOf", "anyOf"] {
            guard case .array(let branches)? = original[combinator], case .array(var rewritten)? = converted[combinator],
                branches.count == rewritten.count
            else { continue }
            for (index, branch) in branches.enumerated() {
                guard let reference = branch.objectValue?["$ref"]?.stringValue, reference.hasPrefix("#") else { continue }
                let isComponent = reference.hasPrefix("#/components/schemas/")
                let name = isComponent ? String(reference.dropFirst("#/components/schemas/".count)) : reference
                var values = mapping.members.filter { $0.value.stringValue == reference || $0.value.stringValue == name }.map { JSONValue.string($0.key) }
                if values.isEmpty {
                    // Only a component has a name the discriminator can default to.
                    guard isComponent else { continue }
                    // Without a mapping the value is the component's name, unless the component
                    // pins the property itself (`type: {enum: [artist]}`): then that is what is sent.
                    let component = components[name].flatMap { document.resolved($0, at: JSONPointer(tokens: ["components", "schemas", name]))?.0 }
                    let own = component?["properties"]?.objectValue?[property]?.objectValue
                    if own?["enum"] != nil || own?["const"] != nil { continue }
                    values = [.string(name)]
                }
                var value = JSONObject()
                value[values.count == 1 ? "const" : "enum"] = values.count == 1 ? values[0] : .array(values)
                var tag = JSONObject()
                tag["properties"] = .object(JSONObject([JSONObject.Member(key: property, value: .object(value))]))
                tag["required"] = .array([.string(property)])
                rewritten[index] = .object(JSONObject([JSONObject.Member(key: "allOf", value: .array([rewritten[index], .object(tag)]))]))
            }
            converted[combinator] = .array(rewritten)
        }
    }

    /// `nullable`, and the boolean form of the exclusive bounds.
    static func rewrite30(_ object: JSONObject) -> JSONObject {
        var object = object
        for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            guard case .bool(let exclusive) = object[flag] else { continue }
            object[flag] = nil
            if exclusive, let value = object[bound] {
                object[flag] = value
                object[bound] = nil
            }
        }
        guard case .bool(let nullable) = object["nullable"] else { return object }
        object["nullable"] = nil
        guard nullable else { return object }
        if case .array(let options) = object["enum"], !options.contains(.null) { object["enum"] = .array(options + [.null]) }
        switch object["type"] {
        case .string(let type):
            object["type"] = .array([.string(type), "null"])
            return object
        case .array(let types):
            if !types.contains("null") { object["type"] = .array(types + ["null"]) }
            return object
        default:
            // No type to widen. Keywords for one type (`properties`, `minLength`…) let null through
            // already; those that would reject it move into an `anyOf` beside null. The rest stays
            // in place, so references into the schema (`…/properties/y`) keep working.
            let rejectingNull = ["$ref", "allOf", "anyOf", "oneOf", "not", "const", "if", "then", "else"]
            var moved = JSONObject()
            for key in rejectingNull { if let value = object[key] { moved[key] = value; object[key] = nil } }
            guard !moved.isEmpty else { return object }
            object["anyOf"] = .array([.object(JSONObject([JSONObject.Member(key: "type", value: "null")])), .object(moved)])
            return object
        }
    }
}
