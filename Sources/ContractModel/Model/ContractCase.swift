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
    /// Requests run after the case's own, whatever its outcome, in order: what undoes its setup.
    /// A step whose captures were never made (its setup failed first) is skipped; a step that
    /// fails is reported, never counted as the case's drift.
    public var teardown: [SetupStep]
    /// Values taken from the case's own JSON response, for its teardown steps only (the id of
    /// what a `POST` case created, to delete it after).
    public var captures: [SetupStep.Capture]
    /// Where the case is in its file, e.g. `/cases/1`.
    public var pointer: JSONPointer

    public init(
        name: String, summary: String? = nil, description: String? = nil, tags: [String] = [], setup: [SetupStep] = [],
        request: CaseRequest = CaseRequest(), response: ResponseExpectation, captures: [SetupStep.Capture] = [], teardown: [SetupStep] = [],
        pointer: JSONPointer
    ) {
        self.name = name
        self.summary = summary
        self.description = description
        self.tags = tags
        self.setup = setup
        self.request = request
        self.response = response
        self.teardown = teardown
        self.captures = captures
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
    /// A link a response gave, followed instead of a path (`"${capture:next}"`): resolved against
    /// the server under test, and followed only there.
    public var url: TemplateString?

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

/// A request run before the case's own (setup), whose response values can be captured for it, or
/// after it (teardown).
public struct SetupStep: Sendable, Hashable {
    public var name: String
    public var method: HTTPMethod
    public var path: PathTemplate
    public var request: CaseRequest
    public var status: StatusExpectation
    /// Variable name to JSON Pointer into the step's response body.
    public var captures: [Capture]

    /// The path of a step that follows a `url`: only known when it is sent.
    public static let followedPath = PathTemplate(segments: [.literal("/")])

    /// What a teardown step accepts unless it says: a success, or the item already gone (the
    /// case's own request may have deleted it).
    public static let teardownStatus = StatusExpectation([.class(2), .code(404), .code(410)])

    /// A value taken from a response, for the requests after it: a value of the JSON body or a
    /// header's, whole or the part a pattern picks out (the `cursor` of a `next` link, the id at
    /// the end of a `Location`).
    public struct Capture: Sendable, Hashable {
        /// Where in the response the value is.
        public enum Source: Sendable, Hashable {
            /// The JSON body's value at a pointer (`""` the whole body).
            case body(JSONPointer)
            /// A header's value (its first field).
            case header(String)
        }

        public var variable: String
        public var source: Source
        /// An ECMA-262 pattern whose first match in the value's text gives the value: its first
        /// group's text, or the whole match's for a pattern without a group.
        public var pattern: String?

        public init(variable: String, source: Source, pattern: String? = nil) {
            self.variable = variable
            self.source = source
            self.pattern = pattern
        }

        /// A capture of the JSON body's value at `pointer`.
        public init(variable: String, pointer: JSONPointer) {
            self.init(variable: variable, source: .body(pointer))
        }

        /// Where the value is, as messages say it: `/id`, `header 'Location'`, with the pattern.
        public var place: String {
            let base: String
            switch source {
            case .body(let pointer): base = pointer.description.isEmpty ? "the whole body" : pointer.description
            case .header(let name): base = "header '\(name)'"
            }
            return pattern.map { "\(base) (pattern '\($0)')" } ?? base
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

extension CaseRequest {
    /// Every text with placeholders the request holds: path parameters, query and header values,
    /// the text body, and the strings of a JSON body that hold `${`.
    public var templates: [TemplateString] {
        var templates = Array(pathParams.values)
        if let url { templates.append(url) }
        templates += query.flatMap { $0.values ?? [] }
        templates += headers.compactMap(\.value)
        switch body {
        case .text(let text): templates.append(text)
        case .json(let value): templates += Self.strings(in: value).compactMap { $0.contains("${") ? try? TemplateString(parsing: $0) : nil }
        case nil: break
        }
        return templates
    }

    /// The variables of `${capture:…}` placeholders anywhere in the request.
    public var capturedVariables: [String] {
        templates.flatMap(\.capturedVariables)
    }

    static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let string): [string]
        case .array(let elements): elements.flatMap(strings)
        case .object(let object): object.members.flatMap { strings(in: $0.value) }
        default: []
        }
    }
}
