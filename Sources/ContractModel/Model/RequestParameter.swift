import ContractJSON

/// A parameter the endpoint takes, as the contract describes it once for every case: where it
/// goes, whether a request must send it, and the JSON Schema its value meets. Cases give values as
/// before (`pathParams`, `query`, `headers`); lint checks each against this, and the app's requests
/// are held to it.
///
/// Written in the endpoint's `request.parameters`, by location then name:
/// `{"query": {"page": {"required": true, "schema": {"type": "integer", "minimum": 1}}}}`.
public struct RequestParameter: Sendable, Hashable {
    /// Where a parameter goes.
    public enum Location: String, Sendable, Hashable, CaseIterable {
        case path
        case query
        case header
    }

    /// How an array (or object) value is written in one parameter (OpenAPI's `style` and
    /// `explode`): `tags=a&tags=b` (form, exploded, the default for a query), `tags=a,b` (form,
    /// not exploded; a header or a path always), `tags=a%20b` (space-delimited) or `tags=a|b`
    /// (pipe-delimited).
    public enum Style: String, Sendable, Hashable, CaseIterable {
        case form
        case simple
        case spaceDelimited
        case pipeDelimited
    }

    public var location: Location
    /// As written; a header's name is compared ignoring case.
    public var name: String
    /// A path parameter always is.
    public var required: Bool
    /// The value's schema; nil when the contract gives none (any value).
    public var schema: SchemaReference?
    public var style: Style
    public var explode: Bool
    /// Where the parameter is described, `/request/parameters/query/page`.
    public var pointer: JSONPointer

    public init(
        location: Location, name: String, required: Bool = false, schema: SchemaReference? = nil, style: Style? = nil, explode: Bool? = nil,
        pointer: JSONPointer
    ) {
        self.location = location
        self.name = name
        self.required = location == .path || required
        self.schema = schema
        let style = style ?? (location == .query ? .form : .simple)
        self.style = style
        self.explode = explode ?? (style == .form)
        self.pointer = pointer
    }

    /// The separator of an array's items when they are written in one value, or nil when each
    /// item repeats the parameter (a query in form style, exploded).
    public var itemSeparator: String? {
        switch style {
        case .form: explode && location == .query ? nil : ","
        case .simple: ","
        case .spaceDelimited: " "
        case .pipeDelimited: "|"
        }
    }
}

extension RequestParameter {
    /// The JSON value a parameter's text stands for, read as its schema's types ask: `"42"` is
    /// the number 42 for `{"type": "integer"}`, `"true"` a boolean, `"a,b"` an array of two
    /// strings for an array in `simple` style. Text that reads as none of the types the schema
    /// allows stays a string, so the schema's own message says what was wrong.
    public func value(of texts: [String]) -> JSONValue {
        let types = SchemaTypes(schema?.schema)
        if types.allows("array") {
            let items: [String] = itemSeparator.map { separator in texts.flatMap { $0.components(separatedBy: separator) } } ?? texts
            let itemTypes = SchemaTypes(schema?.schema.objectValue?["items"])
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
