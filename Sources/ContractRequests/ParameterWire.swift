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
        value(of: texts, types: SchemaTypes(schema), separator: separator)
    }

    /// ``value(of:schema:separator:)`` with the schema's types read beforehand: a checker reads
    /// them once per parameter, not once per request.
    static func value(of texts: [String], types: SchemaTypes, separator: String?) -> JSONValue {
        if types.allowsArray {
            let items: [String] = separator.map { separator in texts.flatMap { Self.items(of: $0, separator: separator) } } ?? texts
            let itemTypes = types.itemTypes?.types ?? SchemaTypes(nil)
            return .array(items.map { itemTypes.value(of: $0) })
        }
        return types.value(of: texts.first ?? "")
    }

    /// Every JSON value the text could stand for, the reading ``value(of:schema:separator:)``
    /// gives first: a schema that takes its type through `$ref`, `allOf`/`oneOf`/`anyOf` or an
    /// `enum` names none at its top, and its value is whichever of these it accepts (`"42"` the
    /// number for `{"$ref": "id.json"}`). A checker accepts the text when the schema accepts any
    /// of them, and reports the first one's errors when it accepts none.
    public static func candidates(of texts: [String], schema: JSONValue?, separator: String?) -> [JSONValue] {
        var result = [value(of: texts, schema: schema, separator: separator)]
        func add(_ value: JSONValue) {
            if !result.contains(value) { result.append(value) }
        }
        let first = texts.first ?? ""
        for reading in readings(of: first) { add(reading) }
        let parts: [String] = separator.map { separator in texts.flatMap { Self.items(of: $0, separator: separator) } } ?? texts
        add(.array(parts.map { readings(of: $0)[0] }))
        add(.array(parts.map { .string($0) }))
        return result
    }

    /// The items of one array value written with `separator`, the spaces around each trimmed
    /// (`1, 2` is RFC 9110's way of writing a list in a header).
    static func items(of text: String, separator: String) -> [String] {
        text.split(separator: separator, omittingEmptySubsequences: false).map { item in
            separator == " " ? String(item) : String(item.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        }
    }

    /// What a text reads as with no schema to say: a number, a boolean or null when it is
    /// written as one, then the string.
    static func readings(of text: String) -> [JSONValue] {
        var values: [JSONValue] = []
        if let number = JSONNumber(text) { values.append(.number(number)) }
        if text == "true" || text == "false" { values.append(.bool(text == "true")) }
        if text == "null" { values.append(.null) }
        values.append(.string(text))
        return values
    }
}

/// The `type`s a schema allows at its top (any, when it names none), with the ones a reading
/// asks about kept as flags: a parameter's text is read per request, and set lookups of type
/// names were a good part of that.
struct SchemaTypes: Sendable {
    private let names: Set<String>?
    let allowsArray: Bool
    private let allowsNumber: Bool
    private let allowsBoolean: Bool
    private let allowsNull: Bool
    /// The types of an array's `items`, when the schema allows an array (read once, here).
    let itemTypes: Box?

    /// Indirection for the recursive `itemTypes`.
    final class Box: Sendable {
        let types: SchemaTypes
        init(_ types: SchemaTypes) { self.types = types }
    }

    init(_ schema: JSONValue?) {
        let names: Set<String>?
        switch schema?.objectValue?["type"] {
        case .string(let name)?: names = [name]
        case .array(let list)?: names = Set(list.compactMap(\.stringValue))
        default: names = nil
        }
        self.names = names
        allowsArray = names?.contains("array") ?? false
        allowsNumber = (names?.contains("integer") ?? false) || (names?.contains("number") ?? false)
        allowsBoolean = names?.contains("boolean") ?? false
        allowsNull = names?.contains("null") ?? false
        itemTypes = allowsArray ? Box(SchemaTypes(schema?.objectValue?["items"])) : nil
    }

    func allows(_ type: String) -> Bool {
        names?.contains(type) ?? false
    }

    /// `text` as the first of the schema's scalar types it reads as, else the text itself.
    func value(of text: String) -> JSONValue {
        if allowsNumber, let number = JSONNumber(text) {
            return .number(number)
        }
        if allowsBoolean, text == "true" || text == "false" { return .bool(text == "true") }
        if allowsNull, text == "null" || text.isEmpty { return .null }
        return .string(text)
    }
}
