import ContractJSON
import ContractModel

/// OpenAPI schemas to JSON Schema 2020-12 as the contracts use it.
///
/// 3.0's dialect is rewritten keyword by keyword: `nullable` adds `null` to the type (or to the
/// `enum`), boolean `exclusiveMinimum`/`exclusiveMaximum` become the 2020-12 numbers, `example`
/// becomes `examples`. For both versions, references to `#/components/schemas/Name` become the
/// shared file `schemas/Name.json`, so a component is written once and recursive schemas stay
/// recursive; any other reference inside the document is copied in place. Keywords that only
/// annotate (`discriminator`, `xml`, `readOnly`) are kept: a validator ignores them; vendor
/// extensions (`x-…`) are left out, as their values may refer to what no contract has. What the
/// document gets wrong is mended (``SchemaRepair``).
struct SchemaConverter {
    let document: OpenAPIDocument
    /// Component names referenced so far, for the caller to write as shared files.
    private(set) var referencedComponents: Set<String> = []
    /// The same names in the order first referenced, for a caller working through them as they grow.
    private(set) var referencedInOrder: [String] = []
    /// What the conversion had to give up or mend, located in the document.
    var warnings: [Diagnostic] { ownWarnings + repair.warnings }
    private var ownWarnings: [Diagnostic] = []
    private var repair: SchemaRepair

    /// Each component's file name, unique even on a file system that ignores case: `Pet` and
    /// `pet`, or `Foo` and `.Foo`, must not share a file.
    private let fileNames: [String: String]

    /// `allOf` entries that refer back to a component listing this one in its `oneOf`/`anyOf`
    /// (``backReferences(in:)``), left out to break a cycle no validator could finish.
    private let backReferences: Set<JSONPointer>

    init(document: OpenAPIDocument) {
        self.document = document
        repair = SchemaRepair(document: document)
        backReferences = Self.backReferences(in: document)
        var names: [String: String] = [:]
        var taken: Set<String> = []
        for name in (document.root["components"]?.objectValue?["schemas"]?.objectValue?.keys ?? []).sorted() {
            names[name] = Identifiers.unique(Identifiers.fileSafe(name), separator: "-", taken: &taken) { $0.lowercased() } + ".json"
        }
        fileNames = names
    }

    /// The schema at `pointer`, for a file `depth` folders below the output folder.
    mutating func convert(_ schema: JSONValue, at pointer: JSONPointer, depth: Int) -> JSONValue {
        let result = repair.removeInvalidKeywords(
            convert(schema, at: pointer, prefix: String(repeating: "../", count: depth) + "schemas/", inlining: []), at: pointer)
        return result
    }

    /// A shared component's schema, for `schemas/Name.json`.
    mutating func convertComponent(_ name: String) -> JSONValue? {
        let pointer = JSONPointer(tokens: ["components", "schemas", name])
        guard let schema = document.value(at: pointer) else { return nil }
        let result = repair.removeInvalidKeywords(convert(schema, at: pointer, prefix: "", inlining: []), at: pointer)
        return result
    }

    /// The file name of a component's shared schema: the name, made safe for any file system.
    func fileName(ofComponent name: String) -> String {
        fileNames[name] ?? Identifiers.fileSafe(name) + ".json"
    }

    private mutating func convert(_ schema: JSONValue, at pointer: JSONPointer, prefix: String, inlining: Set<JSONPointer>) -> JSONValue {
        guard case .object(let object) = schema else { return schema }  // `true`, `false`
        if let reference = object["$ref"]?.stringValue {
            let target = reference.hasPrefix("#/components/schemas/") ? OpenAPIDocument.localPointer(reference) : nil
            // Only a place that exists: `#/components/schemas/A/properties/missing` is a reference to
            // nowhere (already a warning), and a shared file would refer into nothing.
            if let target, target.tokens.count >= 3, document.value(at: target) != nil {
                let name = target.tokens[2]
                if referencedComponents.insert(name).inserted { referencedInOrder.append(name) }
                let rest = JSONPointer(tokens: Array(target.tokens.dropFirst(3)))
                var converted = JSONObject()
                converted["$ref"] = .string(prefix + fileName(ofComponent: name) + (rest.isRoot ? "" : rest.uriFragment))
                // 3.0 ignores everything next to `$ref`; 3.1 applies it alongside.
                if document.version.isDraft2020 {
                    for member in convertMembers(object, at: pointer, prefix: prefix, inlining: inlining) where member.key != "$ref" {
                        converted[member.key] = member.value
                    }
                }
                return .object(converted)
            }
            if let target = OpenAPIDocument.localPointer(reference), let value = document.value(at: target) {
                guard !inlining.contains(target) else {
                    // Only components become shared files that can refer to themselves.
                    ownWarnings.append(document.warning(
                        "'\(reference)' makes a schema outside components/schemas refer to itself, which a copy cannot; move it to components/schemas to keep the recursion (here it accepts any value)",
                        at: pointer.appending("$ref")))
                    return .bool(true)
                }
                return convert(value, at: target, prefix: prefix, inlining: inlining.union([target]))
            }
        }
        // A reference to nowhere, or to another file (already a warning from the document): what
        // it would describe is left out, and the keywords beside it still apply.
        let kept = object["$ref"]?.stringValue == nil ? object : JSONObject(object.members.filter { $0.key != "$ref" })
        var converted = JSONObject(convertMembers(kept, at: pointer, prefix: prefix, inlining: inlining))
        Self.discriminate(&converted, original: object, components: document.root["components"]?.objectValue?["schemas"]?.objectValue ?? JSONObject(), document: document)
        // Contract schemas refer to each other by relative file paths; an `$id` would move their base.
        converted["$id"] = nil
        // Mended first: 3.0's `nullable` may wrap `allOf` into an `anyOf` that the mends must see through.
        converted = repair.repair(converted, at: pointer)
        if !document.version.isDraft2020 { converted = Self.rewrite30(converted) }
        if let example = converted["example"] {
            converted["example"] = nil
            if converted["examples"] == nil { converted["examples"] = .array([example]) }
        }
        return .object(converted)
    }

    /// Subschemas converted, every other value as written.
    private mutating func convertMembers(_ object: JSONObject, at pointer: JSONPointer, prefix: String, inlining: Set<JSONPointer>) -> [JSONObject.Member] {
        object.members.map { member in
            let at = pointer.appending(member.key)
            switch (member.key, member.value) {
            case (let key, .object(let map)) where Self.schemaMaps.contains(key):
                return JSONObject.Member(key: key, value: .object(JSONObject(map.members.map {
                    JSONObject.Member(key: $0.key, value: convert($0.value, at: at.appending($0.key), prefix: prefix, inlining: inlining))
                })))
            case (let key, .array(let elements)) where Self.schemaArrays.contains(key) || key == "items":
                var kept: [JSONValue] = []
                for (offset, element) in elements.enumerated() {
                    let elementPointer = at.appending(offset)
                    if key == "allOf" && backReferences.contains(elementPointer) {
                        ownWarnings.append(document.warning(
                            "this 'allOf' refers back to a schema whose 'oneOf'/'anyOf' lists this one, so each would apply the other without end; left out (the base applies where this schema is reached through it)",
                            at: elementPointer))
                        continue
                    }
                    kept.append(convert(element, at: elementPointer, prefix: prefix, inlining: inlining))
                }
                return JSONObject.Member(key: key, value: .array(kept))
            case (let key, let value) where Self.schemaValues.contains(key):
                return JSONObject.Member(key: key, value: convert(value, at: at, prefix: prefix, inlining: inlining))
            default:
                return member
            }
        }
    }

    /// A base `P` with `oneOf: [C, …]` whose branch `C` has `allOf: [P, …]` (a polymorphic base
    /// written without a discriminator): `P` applies `C`, which applies `P` to the same value.
    /// The `allOf` entries of such branches that name their base.
    private static func backReferences(in document: OpenAPIDocument) -> Set<JSONPointer> {
        let prefix = "#/components/schemas/"
        let components = document.root["components"]?.objectValue?["schemas"]?.objectValue ?? JSONObject()
        var found: Set<JSONPointer> = []
        for base in components {
            for combinator in ["oneOf", "anyOf"] {
                for branch in base.value.objectValue?[combinator]?.arrayValue ?? [] {
                    guard let reference = branch.objectValue?["$ref"]?.stringValue, reference.hasPrefix(prefix) else { continue }
                    let name = String(reference.dropFirst(prefix.count))
                    for (index, entry) in (components[name]?.objectValue?["allOf"]?.arrayValue ?? []).enumerated()
                    where entry.objectValue?["$ref"]?.stringValue == prefix + base.key {
                        found.insert(JSONPointer(tokens: ["components", "schemas", name, "allOf", String(index)]))
                    }
                }
            }
        }
        return found
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
