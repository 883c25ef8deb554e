/// A JSON value with exact numbers and object members in document order.
///
/// Equality follows JSON semantics (RFC 8259 and JSON Schema): numbers compare by value,
/// so `1` equals `1.0`, and objects compare as unordered sets of members.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// Strings compare code point by code point: JSON does not treat `é` and `e` + U+0301 as equal,
    /// although Swift's `String` does.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): ByteComparison.equal(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

extension JSONValue {
    /// The JSON type name used in messages: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
    ///
    /// Numbers with an integral value (`1.0` included) are named `integer`, as JSON Schema does.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.isInteger ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// True when both are one stored array or object (a parser that shares values, see
    /// ``JSONParser/sharesValues``, gives each repeat of a text the first one's storage), or the
    /// same scalar (a string of up to 15 bytes, held inline, byte for byte): then they are
    /// identical, members in the same order, and that is known without looking inside. False
    /// says nothing: equal values may be stored apart.
    public func sharesStorage(with other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.utf8.count <= 15 && ByteComparison.equal(a, b)
        case (.array(let a), .array(let b)): a.count == b.count && Self.address(a) == Self.address(b)
        case (.object(let a), .object(let b)): a.count == b.count && Self.address(a.members) == Self.address(b.members)
        default: false
        }
    }

    private static func address<Element>(_ array: [Element]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
}

// Not ExpressibleByNilLiteral: a bare `nil` where a `JSONValue?` is meant would silently be JSON's
// null (it once cost the fixture synthesizer seven schemas); JSON null is spelled `.null`.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
