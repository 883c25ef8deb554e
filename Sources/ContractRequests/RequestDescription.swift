import ContractJSON

/// What any request to one endpoint must be, whatever case a test picks: its parameters with
/// their schemas, the headers it must send, and its body's media type and schema, with every
/// shared schema file those schemas reach. Self-contained, so an app's requests are checked
/// offline, with no contracts tree (fixture format 2 carries one in each fixture, as `endpoint`).
public struct RequestDescription: Sendable, Hashable {
    /// A path, query or header parameter the endpoint describes.
    public struct Parameter: Sendable, Hashable {
        public var location: ParameterLocation
        /// As written; a header's name is compared ignoring case.
        public var name: String
        public var required: Bool
        /// The value's schema, as written in the contract; nil for any value.
        public var schema: JSONValue?
        /// Where the schema is written in the contract file (`/request/parameters/query/page/schema`).
        public var schemaPointer: JSONPointer?
        public var style: ParameterStyle
        public var explode: Bool

        public init(
            location: ParameterLocation, name: String, required: Bool, schema: JSONValue? = nil, schemaPointer: JSONPointer? = nil,
            style: ParameterStyle? = nil, explode: Bool? = nil
        ) {
            self.location = location
            self.name = name
            self.required = location == .path || required
            self.schema = schema
            self.schemaPointer = schemaPointer
            let style = style ?? .standard(for: location)
            self.style = style
            self.explode = explode ?? (style == .form)
        }

        var itemSeparator: String? { ParameterWire.itemSeparator(location: location, style: style, explode: explode) }
    }

    /// A header every request sends (the endpoint's `request.headers`). Its value is kept only
    /// when it is literal: a value with a placeholder may be a secret, and is never written.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The body every request sends.
    public struct Body: Sendable, Hashable {
        /// `application/json`, or the media type the contract names.
        public var contentType: String
        public var schema: JSONValue?
        /// Where the schema is written in the contract file (`/request/schema`).
        public var schemaPointer: JSONPointer?
        /// Every request sends one; false when a case that does not expect a 4xx sends none.
        public var required: Bool

        public init(contentType: String, schema: JSONValue? = nil, schemaPointer: JSONPointer? = nil, required: Bool = true) {
            self.contentType = contentType
            self.schema = schema
            self.schemaPointer = schemaPointer
            self.required = required
        }
    }

    /// A shared schema file a schema of the description reaches, as the tree has it.
    public struct SchemaFile: Sendable, Hashable {
        /// Relative to the contracts folder: `schemas/product.json`.
        public var path: String
        /// Other URIs the tree publishes the file at (its settings' `schemaURIs`).
        public var uris: [String]
        public var document: JSONValue

        public init(path: String, uris: [String] = [], document: JSONValue) {
            self.path = path
            self.uris = uris
            self.document = document
        }
    }

    public var method: String
    /// `/api/products/{id}`.
    public var pathTemplate: String
    public var parameters: [Parameter]
    public var headers: [Header]
    public var body: Body?
    /// Whether `format` is asserted, as the tree's settings say.
    public var assertsFormats: Bool
    public var schemaFiles: [SchemaFile]

    /// The query parameters it describes with a schema: any value of theirs routes to the
    /// endpoint, and the checks hold it (``Route/describedQuery``).
    public var describedQuery: Set<String> {
        Set(parameters.filter { $0.location == .query && $0.schema != nil }.map(\.name))
    }

    public init(
        method: String, pathTemplate: String, parameters: [Parameter] = [], headers: [Header] = [], body: Body? = nil, assertsFormats: Bool = true,
        schemaFiles: [SchemaFile] = []
    ) {
        self.method = method
        self.pathTemplate = pathTemplate
        self.parameters = parameters
        self.headers = headers
        self.body = body
        self.assertsFormats = assertsFormats
        self.schemaFiles = schemaFiles
    }
}
