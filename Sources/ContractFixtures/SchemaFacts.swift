import ContractJSON

/// A schema and where its references are read from: merged schemas keep each part's own file and
/// resource, so `$ref: "pet.json"` written in `schemas/order.json` still finds `schemas/pet.json`,
/// and `#/$defs/x` in a case's inline schema means that schema's `$defs`.
struct SchemaPart {
    var schema: JSONValue
    var file: String
    /// The schema resource `#…` fragments are read in: the file's root, an inline schema, or the
    /// nearest enclosing schema with an `$id`. Nil: the file's root.
    var resource: JSONValue? = Optional.none
    /// The absolute `$id` in force, against which relative references resolve first.
    var base: String? = nil

    /// A subschema of this part: same file, resource and base.
    func child(_ schema: JSONValue) -> SchemaPart {
        SchemaPart(schema: schema, file: file, resource: resource, base: base)
    }
}

/// What a list of plain schema objects (no `$ref`, `allOf`, `oneOf` or `anyOf` left in them)
/// require together: the intersection a value must fall in. `allOf: [A, B]` where A says
/// `type: [array, null]` and B `type: array, items: Pet` is an array of pets; the synthesizer
/// reads these facts instead of letting the last keyword win.
struct SchemaFacts {
    /// Nil: any type. `integer` is kept apart from `number`, which admits it.
    private(set) var types: [String]?
    private(set) var constant: JSONValue?
    private(set) var options: [JSONValue]?
    private(set) var examples: [JSONValue] = []

    private(set) var minimum: Double?
    private(set) var maximum: Double?
    private(set) var exclusiveMinimum: Double?
    private(set) var exclusiveMaximum: Double?
    private(set) var multipleOf: Double?

    private(set) var minLength = 0
    private(set) var maxLength: Int?
    private(set) var patterns: [String] = []
    private(set) var format: String?

    private(set) var minItems = 0
    private(set) var maxItems: Int?
    private(set) var uniqueItems = false
    /// Every part's `items`; none: any element (an array without `items` admits anything).
    private(set) var items: [SchemaPart] = []
    private(set) var itemsForbidden = false
    private(set) var prefixItems: [[SchemaPart]] = []
    private(set) var contains: [SchemaPart] = []

    /// In the order first written; each property's schemas from every part that describes it.
    private(set) var properties: [(name: String, parts: [SchemaPart])] = []
    private var propertyIndex: [String: Int] = [:]
    private(set) var required: [String] = []
    private(set) var additionalProperties: [SchemaPart] = []
    private(set) var additionalPropertiesForbidden = false
    private(set) var minProperties = 0
    private(set) var maxProperties: Int?

    /// Why no value satisfies the parts, for the message that asks for an example.
    struct Conflict: Error {
        var reason: String
    }

    /// Throws when the parts contradict each other (no common type, different constants, enums
    /// without a shared value): no value satisfies them, and another branch should be tried.
    init(_ parts: [SchemaPart]) throws(Conflict) {
        for part in parts {
            guard let object = part.schema.objectValue else { throw Conflict(reason: "a schema is not an object") }
            if let reason = add(object, from: part) { throw Conflict(reason: reason) }
        }
    }

    func property(_ name: String) -> [SchemaPart]? {
        propertyIndex[name].map { properties[$0].parts }
    }

    /// Whether `value`'s JSON type is one the facts admit.
    func admitsType(_ value: JSONValue) -> Bool {
        guard let types else { return true }
        switch value {
        case .null: return types.contains("null")
        case .bool: return types.contains("boolean")
        case .string: return types.contains("string")
        case .array: return types.contains("array")
        case .object: return types.contains("object")
        case .number(let number):
            return types.contains("number") || (types.contains("integer") && number.doubleValue.rounded() == number.doubleValue)
        }
    }

    /// Adds one part; the contradiction it brings, if any, in words.
    private mutating func add(_ object: JSONObject, from part: SchemaPart) -> String? {
        let file = part.file
        if let written = Self.typeNames(object["type"]) {
            let merged = types.map { Self.intersect($0, written) } ?? written
            guard !merged.isEmpty else { return "one schema wants \(Self.list(types ?? [])), another (in \(file)) \(Self.list(written))" }
            types = merged
        }
        if let value = object["const"] {
            guard constant == nil || constant == value else { return "two schemas want different constants (one in \(file))" }
            constant = value
        }
        if let values = object["enum"]?.arrayValue {
            let merged = options.map { existing in existing.filter(values.contains) } ?? values
            guard !merged.isEmpty else { return "two enums have no value in common (one in \(file))" }
            options = merged
        }
        if let constant, let options, !options.contains(constant) { return "a constant is not among the enum's values (in \(file))" }
        examples += object["examples"]?.arrayValue ?? []

        func number(_ key: String) -> Double? { object[key]?.numberValue?.doubleValue }
        func count(_ key: String) -> Int? { object[key]?.numberValue?.intValue }
        minimum = Self.larger(minimum, number("minimum"))
        exclusiveMinimum = Self.larger(exclusiveMinimum, number("exclusiveMinimum"))
        maximum = Self.smaller(maximum, number("maximum"))
        exclusiveMaximum = Self.smaller(exclusiveMaximum, number("exclusiveMaximum"))
        multipleOf = Self.larger(multipleOf, number("multipleOf"))
        minLength = max(minLength, count("minLength") ?? 0)
        maxLength = Self.smaller(maxLength, count("maxLength"))
        if let pattern = object["pattern"]?.stringValue { patterns.append(pattern) }
        format = format ?? object["format"]?.stringValue

        minItems = max(minItems, count("minItems") ?? 0)
        maxItems = Self.smaller(maxItems, count("maxItems"))
        uniqueItems = uniqueItems || object["uniqueItems"]?.boolValue == true
        switch object["items"] {
        case .bool(false)?: itemsForbidden = true
        case .some(let schema) where schema != .bool(true): items.append(part.child(schema))
        default: break
        }
        for (position, schema) in (object["prefixItems"]?.arrayValue ?? []).enumerated() {
            if prefixItems.count <= position { prefixItems.append([]) }
            prefixItems[position].append(part.child(schema))
        }
        if let schema = object["contains"] { contains.append(part.child(schema)) }

        for member in object["properties"]?.objectValue ?? JSONObject() {
            let part = part.child(member.value)
            if let index = propertyIndex[member.key] {
                properties[index].parts.append(part)
            } else {
                propertyIndex[member.key] = properties.count
                properties.append((member.key, [part]))
            }
        }
        for name in object["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where !required.contains(name) {
            required.append(name)
        }
        switch object["additionalProperties"] {
        case .bool(false)?: additionalPropertiesForbidden = true
        case .some(let schema) where schema != .bool(true): additionalProperties.append(part.child(schema))
        default: break
        }
        minProperties = max(minProperties, count("minProperties") ?? 0)
        maxProperties = Self.smaller(maxProperties, count("maxProperties"))
        return nil
    }

    private static func list(_ names: [String]) -> String {
        names.count == 1 ? "type \(names[0])" : "types \(names.joined(separator: " or "))"
    }

    private static func typeNames(_ value: JSONValue?) -> [String]? {
        if let name = value?.stringValue { return [name] }
        return value?.arrayValue?.compactMap(\.stringValue)
    }

    /// The types both admit, in `first`'s order: `number` and `integer` meet in `integer`.
    private static func intersect(_ first: [String], _ second: [String]) -> [String] {
        var result: [String] = []
        for name in first {
            let kept: String? =
                if second.contains(name) { name }
                else if name == "integer" && second.contains("number") { "integer" }
                else if name == "number" && second.contains("integer") { "integer" }
                else { nil }
            if let kept, !result.contains(kept) { result.append(kept) }
        }
        return result
    }

    private static func larger<T: Comparable>(_ first: T?, _ second: T?) -> T? {
        guard let first else { return second }
        guard let second else { return first }
        return max(first, second)
    }

    private static func smaller<T: Comparable>(_ first: T?, _ second: T?) -> T? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }
}
