import ContractJSON
import ContractRequests

/// A parameter the endpoint takes, as the contract describes it once for every case: where it
/// goes, whether a request must send it, and the JSON Schema its value meets. Cases give values as
/// before (`pathParams`, `query`, `headers`); lint checks each against this, and the app's requests
/// are held to it.
///
/// Written in the endpoint's `request.parameters`, by location then name:
/// `{"query": {"page": {"required": true, "schema": {"type": "integer", "minimum": 1}}}}`.
public struct RequestParameter: Sendable, Hashable {
    /// Where a parameter goes.
    public typealias Location = ParameterLocation
    /// How an array value is written in one parameter (OpenAPI's `style` and `explode`).
    public typealias Style = ParameterStyle

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
        let style = style ?? .standard(for: location)
        self.style = style
        self.explode = explode ?? (style == .form)
        self.pointer = pointer
    }

    /// The separator of an array's items when they are written in one value, or nil when each
    /// item repeats the parameter (a query in form style, exploded).
    public var itemSeparator: String? {
        ParameterWire.itemSeparator(location: location, style: style, explode: explode)
    }
}

extension RequestParameter {
    /// The JSON value a parameter's text stands for, read as its schema's types ask (see
    /// ``ParameterWire/value(of:schema:separator:)``, the one reading lint and the stubs share).
    public func value(of texts: [String]) -> JSONValue {
        ParameterWire.value(of: texts, schema: schema?.schema, separator: itemSeparator)
    }

    /// Every reading of the texts, the one ``value(of:)`` gives first: a schema that names its
    /// type through `$ref`, a combinator or an `enum` is held to whichever it accepts, as the stubs
    /// hold an app's request (``ParameterWire/candidates(of:schema:separator:)``).
    public func readings(of texts: [String]) -> [JSONValue] {
        ParameterWire.candidates(of: texts, schema: schema?.schema, separator: itemSeparator)
    }
}
