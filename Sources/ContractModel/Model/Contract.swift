import ContractJSON

/// One contract file: an endpoint (method and path template) and the cases run against it.
public struct Contract: Sendable, Hashable {
    public var id: String
    public var summary: String?
    public var description: String?
    public var tags: [String]
    public var endpoint: Endpoint
    public var cases: [ContractCase]
    /// The file the contract came from, as displayed in diagnostics.
    public var file: String

    public init(
        id: String, summary: String? = nil, description: String? = nil, tags: [String] = [], endpoint: Endpoint,
        cases: [ContractCase], file: String
    ) {
        self.id = id
        self.summary = summary
        self.description = description
        self.tags = tags
        self.endpoint = endpoint
        self.cases = cases
        self.file = file
    }
}

/// The request shared by every case of a contract.
public struct Endpoint: Sendable, Hashable {
    public var method: HTTPMethod
    public var path: PathTemplate
    public var headers: [HeaderField]
    public var query: [QueryItem]
    /// What the endpoint takes, whatever case is run (`request.parameters`): each path, query and
    /// header parameter it describes, with its schema and whether it is required.
    public var parameters: [RequestParameter]
    /// The schema of the body every request sends (`request.schema` of the endpoint): what the app
    /// may send, whatever case a test picks. A case's own `request.schema` is checked too.
    public var schema: SchemaReference?
    /// The media type of that body (`request.contentType`); `application/json` when the endpoint
    /// describes a JSON body without saying.
    public var contentType: String?

    public init(
        method: HTTPMethod, path: PathTemplate, headers: [HeaderField] = [], query: [QueryItem] = [], parameters: [RequestParameter] = [],
        schema: SchemaReference? = nil, contentType: String? = nil
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.query = query
        self.parameters = parameters
        self.schema = schema
        self.contentType = contentType
    }
}

/// A request header whose value may hold placeholders; nil removes an endpoint header in a case.
public struct HeaderField: Sendable, Hashable {
    public var name: String
    public var value: TemplateString?

    public init(name: String, value: TemplateString?) {
        self.name = name
        self.value = value
    }
}

/// A query parameter; several values repeat the parameter; nil removes an endpoint parameter in a case.
public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var values: [TemplateString]?

    public init(name: String, values: [TemplateString]?) {
        self.name = name
        self.values = values
    }
}
