import ContractJSON

/// One exchange with the endpoint: the values to send and the response to expect.
public struct ContractCase: Sendable, Hashable {
    public var name: String
    public var summary: String?
    public var description: String?
    public var tags: [String]
    public var setup: [SetupStep]
    public var request: CaseRequest
    public var response: ResponseExpectation
    /// Where the case is in its file, e.g. `/cases/1`.
    public var pointer: JSONPointer

    public init(
        name: String, summary: String? = nil, description: String? = nil, tags: [String] = [], setup: [SetupStep] = [],
        request: CaseRequest = CaseRequest(), response: ResponseExpectation, pointer: JSONPointer
    ) {
        self.name = name
        self.summary = summary
        self.description = description
        self.tags = tags
        self.setup = setup
        self.request = request
        self.response = response
        self.pointer = pointer
    }
}

/// A case's values for the endpoint's request; headers and query are merged over the endpoint's.
public struct CaseRequest: Sendable, Hashable {
    public var pathParams: [String: TemplateString]
    public var query: [QueryItem]
    public var headers: [HeaderField]
    public var body: RequestBody?
    /// The schema of the request body, when one is given.
    public var schema: SchemaReference?

    public init(
        pathParams: [String: TemplateString] = [:], query: [QueryItem] = [], headers: [HeaderField] = [], body: RequestBody? = nil,
        schema: SchemaReference? = nil
    ) {
        self.pathParams = pathParams
        self.query = query
        self.headers = headers
        self.body = body
        self.schema = schema
    }
}

/// What a request sends: JSON (strings in it may hold placeholders) or raw text.
public enum RequestBody: Sendable, Hashable {
    case json(JSONValue)
    case text(TemplateString)
}

/// A request run before the case's own, whose response values can be captured for it.
public struct SetupStep: Sendable, Hashable {
    public var name: String
    public var method: HTTPMethod
    public var path: PathTemplate
    public var request: CaseRequest
    public var status: StatusExpectation
    /// Variable name to JSON Pointer into the step's response body.
    public var captures: [Capture]

    public struct Capture: Sendable, Hashable {
        public var variable: String
        public var pointer: JSONPointer

        public init(variable: String, pointer: JSONPointer) {
            self.variable = variable
            self.pointer = pointer
        }
    }

    public init(
        name: String, method: HTTPMethod, path: PathTemplate, request: CaseRequest, status: StatusExpectation, captures: [Capture]
    ) {
        self.name = name
        self.method = method
        self.path = path
        self.request = request
        self.status = status
        self.captures = captures
    }
}
