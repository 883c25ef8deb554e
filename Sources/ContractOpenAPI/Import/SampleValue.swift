import ContractJSON
import ContractSchema

/// A value for a parameter or request body the document gives no example for: the schema's own
/// `example`, `default`, `const` or first `enum` value when it has one, else the simplest value
/// of its type that meets its bounds and format.
struct SampleValue {
    let document: OpenAPIDocument

    /// A value that changes something: an object with its first optional property, when it
    /// requires none (a `PATCH` of `{}` asks for no change, and servers refuse it; one member
    /// is the least change, and the one least likely to touch what the item's state forbids).
    func changingValue(for schema: JSONValue?) -> JSONValue? {
        guard case .object(let empty)? = value(for: schema), empty.isEmpty else { return value(for: schema) }
        var result = JSONObject()
        // A member the server sets (`readOnly`) is no change a client may ask for.
        for (name, property) in properties(of: schema) where resolved(property)?["readOnly"] != .bool(true) {
            guard let value = value(for: property, depth: 1) else { continue }
            result[name] = value
            break
        }
        return .object(result)
    }

    /// The properties a schema declares, in order, through references and `allOf`.
    private func properties(of schema: JSONValue?, depth: Int = 0) -> [(String, JSONValue)] {
        guard depth < 8, let object = resolved(schema) else { return [] }
        var result = (object["properties"]?.objectValue ?? JSONObject()).members.map { ($0.key, $0.value) }
        for part in object["allOf"]?.arrayValue ?? [] { result += properties(of: part, depth: depth + 1) }
        return result
    }

    private func resolved(_ schema: JSONValue?, depth: Int = 0) -> JSONObject? {
        guard depth < 8, case .object(let object)? = schema else { return nil }
        if let reference = object["$ref"]?.stringValue, let target = OpenAPIDocument.localPointer(reference) {
            return resolved(document.value(at: target), depth: depth + 1)
        }
        return object
    }

    func value(for schema: JSONValue?, depth: Int = 0) -> JSONValue? {
        guard depth < 8, case .object(let object)? = schema else { return nil }
        if let reference = object["$ref"]?.stringValue, let target = OpenAPIDocument.localPointer(reference) {
            return value(for: document.value(at: target), depth: depth + 1)
        }
        if let example = object["example"] { return example }
        if case .array(let examples)? = object["examples"], let first = examples.first { return first }
        if let value = object["default"] ?? object["const"] { return value }
        if case .array(let options)? = object["enum"], let first = options.first(where: { $0 != .null }) { return first }
        for combinator in ["allOf", "oneOf", "anyOf"] {
            guard case .array(let parts)? = object[combinator] else { continue }
            if combinator == "allOf" { return merged(parts, depth: depth) }
            if let first = parts.lazy.compactMap({ value(for: $0, depth: depth + 1) }).first { return first }
        }
        switch Self.type(of: object) {
        case "integer", "number":
            return .number(JSONNumber(number(for: object)))
        case "boolean":
            return .bool(true)
        case "array":
            let count = max(1, Int(object["minItems"]?.numberValue?.doubleValue ?? 1))
            guard let item = value(for: object["items"], depth: depth + 1) else { return .array([]) }
            return .array(Array(repeating: item, count: count))
        case "object":
            var result = JSONObject()
            let properties = object["properties"]?.objectValue ?? JSONObject()
            for case .string(let name) in object["required"]?.arrayValue ?? [] {
                result[name] = value(for: properties[name], depth: depth + 1) ?? "example"
            }
            return .object(result)
        case "null":
            return .null
        default:
            return .string(string(for: object))
        }
    }

    /// The smallest positive integer within the bounds (3.0's boolean or 3.1's numeric exclusive
    /// ones) and a multiple of `multipleOf`; the lower bound itself when nothing positive fits.
    private func number(for object: JSONObject) -> Int {
        func bound(_ key: String) -> Double? { object[key]?.numberValue?.doubleValue }
        var low = bound("minimum") ?? -Double.infinity
        var high = bound("maximum") ?? Double.infinity
        if let exclusive = bound("exclusiveMinimum") { low = max(low, exclusive + 1) } else if object["exclusiveMinimum"] == .bool(true) { low += 1 }
        if let exclusive = bound("exclusiveMaximum") { high = min(high, exclusive - 1) } else if object["exclusiveMaximum"] == .bool(true) { high -= 1 }
        let step = max(1, Int(bound("multipleOf") ?? 1))
        var candidate = low.isFinite ? Int(low.rounded(.up)) : 1
        if !low.isFinite, high.isFinite, Double(candidate) > high { candidate = Int(high.rounded(.down)) }
        let remainder = ((candidate % step) + step) % step
        if remainder != 0 { candidate += step - remainder }
        return candidate
    }

    private func merged(_ parts: [JSONValue], depth: Int) -> JSONValue? {
        var result = JSONObject()
        for part in parts {
            switch value(for: part, depth: depth + 1) {
            case .object(let object)?: for member in object { result[member.key] = member.value }
            case let other?: return other
            case nil: continue
            }
        }
        return .object(result)
    }

    private func string(for object: JSONObject) -> String {
        switch object["format"]?.stringValue {
        case "date-time": return "2026-01-05T09:30:00Z"
        case "date": return "2026-01-05"
        case "time": return "09:30:00Z"
        case "uuid": return "123e4567-e89b-42d3-a456-426614174000"
        case "email": return "user@example.com"
        case "uri", "url": return "https://example.com/"
        case "hostname": return "example.com"
        case "ipv4": return "192.0.2.1"
        case "ipv6": return "2001:db8::1"
        default:
            let minimum = Int(object["minLength"]?.numberValue?.doubleValue ?? 0)
            let maximum = object["maxLength"]?.numberValue.map { Int($0.doubleValue) } ?? Int.max
            if let pattern = object["pattern"]?.stringValue,
                let text = PatternSynthesizer.matchingExample(for: pattern, minLength: minimum, maxLength: maximum == Int.max ? nil : maximum)
            {
                return text
            }
            return "example" + String(repeating: "x", count: max(0, minimum - 7))
        }
    }

    static func type(of object: JSONObject) -> String? {
        switch object["type"] {
        case .string(let type): return type
        case .array(let types): return types.lazy.compactMap(\.stringValue).first { $0 != "null" }
        default: return object["properties"] != nil ? "object" : object["items"] != nil ? "array" : nil
        }
    }
}
