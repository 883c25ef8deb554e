import ContractJSON

/// Where a request parameter goes.
public enum ParameterLocation: String, Sendable, Hashable, CaseIterable {
    case path
    case query
    case header
}

/// How an array (or object) value is written in one parameter (OpenAPI's `style` and `explode`):
/// `tags=a&tags=b` (form, exploded, the default for a query), `tags=a,b` (form, not exploded; a
/// header or a path always), `tags=a%20b` (space-delimited) or `tags=a|b` (pipe-delimited).
public enum ParameterStyle: String, Sendable, Hashable, CaseIterable {
    case form
    case simple
    case spaceDelimited
    case pipeDelimited

    /// A location's style when the contract names none.
    public static func standard(for location: ParameterLocation) -> ParameterStyle {
        location == .query ? .form : .simple
    }
}

/// How a parameter's text on the wire reads as the JSON value its schema checks: the one reading
/// that lint (a case's values), the stubs and the mock server (an app's requests) share.
public enum ParameterWire {
    /// The separator of an array's items when they are written in one value, or nil when each
    /// item repeats the parameter (a query in form style, exploded).
    public static func itemSeparator(location: ParameterLocation, style: ParameterStyle, explode: Bool) -> String? {
        switch style {
        case .form: explode && location == .query ? nil : ","
        case .simple: ","
        case .spaceDelimited: " "
        case .pipeDelimited: "|"
        }
    }

    /// The JSON value a parameter's text stands for, read as `schema`'s types ask: `"42"` is the
    /// number 42 for `{"type": "integer"}`, `"true"` a boolean, `"a,b"` an array of two strings
    /// for an array in `simple` style. Text that reads as none of the types the schema allows
    /// stays a string, so the schema's own message says what was wrong (`expected integer, found
    /// "first"`).
    public static func value(of texts: [String], schema: JSONValue?, separator: String?) -> JSONValue {
        let types = SchemaTypes(schema)
        if types.allows("array") {
            let items: [String] = separator.map { separator in texts.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) } } ?? texts
            let itemTypes = SchemaTypes(schema?.objectValue?["items"])
            return .array(items.map { itemTypes.value(of: $0) })
        }
        return types.value(of: texts.first ?? "")
    }
}

/// The `type`s a schema allows at its top (any, when it names none).
struct SchemaTypes {
    private let names: Set<String>?

    init(_ schema: JSONValue?) {
        switch schema?.objectValue?["type"] {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = Set(list.compactMap(\.stringValue))
        default: names = nil
        }
    }

    func allows(_ type: String) -> Bool {
        names?.contains(type) ?? false
    }

    /// `text` as the first of the schema's scalar types it reads as, else the text itself.
    func value(of text: String) -> JSONValue {
        if allows("integer") || allows("number"), let number = JSONNumber(text) {
            return .number(number)
        }
        if allows("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        if allows("null"), text == "null" || text.isEmpty { return .null }
        return .string(text)
    }
}
