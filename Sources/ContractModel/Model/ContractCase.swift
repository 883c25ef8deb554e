import ContractJSON

/// One exchange with the endpoint: the values to send and the response to expect.
///
/// What most cases leave empty (summary, description, tags, setup, teardown, captures) is kept
/// out of line, in one box made only for a case that has any of it, so a typical case is small:
/// a large contract holds every case at once.
public struct ContractCase: Sendable, Hashable {
    public var name: String
    public var request: CaseRequest
    public var response: ResponseExpectation
    /// Where the case is in its file, e.g. `/cases/1`.
    public var pointer: JSONPointer
    /// Nil when every part is empty: no case holds an empty box, so `==` compares as the fields do.
    private var rareParts: OutOfLine<RareParts>?

    /// The parts of a case that most cases leave empty.
    private struct RareParts: RarelySet {
        var summary: String?
        var description: String?
        var tags: [String] = []
        var setup: [SetupStep] = []
        var teardown: [SetupStep] = []
        var captures: [SetupStep.Capture] = []

        var isEmpty: Bool {
            summary == nil && description == nil && tags.isEmpty && setup.isEmpty && teardown.isEmpty && captures.isEmpty
        }
    }

    public var summary: String? {
        get { rareParts?.value.summary }
        set { changeRareParts { $0.summary = newValue } }
    }

    public var description: String? {
        get { rareParts?.value.description }
        set { changeRareParts { $0.description = newValue } }
    }

    public var tags: [String] {
        get { rareParts?.value.tags ?? [] }
        set { changeRareParts { $0.tags = newValue } }
    }

    public var setup: [SetupStep] {
        get { rareParts?.value.setup ?? [] }
        set { changeRareParts { $0.setup = newValue } }
    }

    /// Requests run after the case's own, whatever its outcome, in order: what undoes its setup.
    /// A step whose captures were never made (its setup failed first) is skipped; a step that
    /// fails is reported, never counted as the case's drift.
    public var teardown: [SetupStep] {
        get { rareParts?.value.teardown ?? [] }
        set { changeRareParts { $0.teardown = newValue } }
    }

    /// Values taken from the case's own JSON response, for its teardown steps only (the id of
    /// what a `POST` case created, to delete it after).
    public var captures: [SetupStep.Capture] {
        get { rareParts?.value.captures ?? [] }
        set { changeRareParts { $0.captures = newValue } }
    }

    public init(
        name: String, summary: String? = nil, description: String? = nil, tags: [String] = [], setup: [SetupStep] = [],
        request: CaseRequest = CaseRequest(), response: ResponseExpectation, captures: [SetupStep.Capture] = [], teardown: [SetupStep] = [],
        pointer: JSONPointer
    ) {
        self.name = name
        self.request = request
        self.response = response
        self.pointer = pointer
        let rare = RareParts(summary: summary, description: description, tags: tags, setup: setup, teardown: teardown, captures: captures)
        rareParts = rare.isEmpty ? nil : OutOfLine(rare)
    }

    private mutating func changeRareParts(_ change: (inout RareParts) -> Void) {
        rareParts = .changing(rareParts, change)
    }
}

/// A case's values for the endpoint's request; headers and query are merged over the endpoint's.
///
/// The body, its schema and a followed link are kept out of line (one box, made only for a
/// request that has any of them): most cases of a large contract send none, and inline they
/// were a third of a case's size.
public struct CaseRequest: Sendable, Hashable {
    public var pathParams: PathParameters
    public var query: [QueryItem]
    public var headers: [HeaderField]
    /// Nil when all are absent: no request holds an empty box, so `==` compares as the fields do.
    private var rareParts: OutOfLine<RareParts>?

    /// The parts of a request that most cases leave out.
    private struct RareParts: RarelySet {
        var body: RequestBody?
        var schema: SchemaReference?
        var url: TemplateString?

        var isEmpty: Bool { body == nil && schema == nil && url == nil }
    }

    public var body: RequestBody? {
        get { rareParts?.value.body }
        set { changeRareParts { $0.body = newValue } }
    }

    /// The schema of the request body, when one is given.
    public var schema: SchemaReference? {
        get { rareParts?.value.schema }
        set { changeRareParts { $0.schema = newValue } }
    }

    /// A link a response gave, followed instead of a path (`"${capture:next}"`): resolved against
    /// the server under test, and followed only there.
    public var url: TemplateString? {
        get { rareParts?.value.url }
        set { changeRareParts { $0.url = newValue } }
    }

    public init(
        pathParams: PathParameters = [:], query: [QueryItem] = [], headers: [HeaderField] = [], body: RequestBody? = nil,
        schema: SchemaReference? = nil
    ) {
        self.pathParams = pathParams
        self.query = query
        self.headers = headers
        let rare = RareParts(body: body, schema: schema)
        rareParts = rare.isEmpty ? nil : OutOfLine(rare)
    }

    private mutating func changeRareParts(_ change: (inout RareParts) -> Void) {
        rareParts = .changing(rareParts, change)
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
        var templates = pathParams.values
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
