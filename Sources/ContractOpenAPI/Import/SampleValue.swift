import ContractJSON

/// A value for a parameter or request body the document gives no example for: the schema's own
/// `example`, `default`, `const` or first `enum` value when it has one, else the simplest value
/// of its type that meets its bounds and format.
struct SampleValue {
    let document: OpenAPIDocument

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
            let minimum = object["minimum"]?.numberValue?.doubleValue ?? object["exclusiveMinimum"]?.numberValue.map { $0.doubleValue + 1 } ?? 1
            return .number(JSONNumber(Int(max(1, minimum.rounded(.up)))))
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
