import ContractJSON
import ContractSchema

/// Holds requests to a ``RequestDescription``: every parameter it describes, the headers it
/// must send, and the body's media type and schema, with the same JSON Schema validator
/// `contract verify` holds responses to. Compiled once per endpoint, then safe to share.
///
/// What it does not hold a request to, on purpose: a query parameter or header the description
/// does not name (APIs take more than they describe), an `Accept` it leaves out (no `Accept`
/// accepts anything, RFC 9110 §12.5.1), and headers the HTTP client writes itself (`User-Agent`). A header the endpoint sends with a literal value is held
/// to being sent, not to that value: clients differ in what they send in `User-Agent` and the like.
public struct RequestChecker: Sendable {
    public let description: RequestDescription
    private let parameterSchemas: [JSONSchema?]
    /// Each parameter's top-level `type`s, read once: every request's texts are read by them.
    private let parameterTypes: [SchemaTypes]
    private let bodySchema: JSONSchema?
    private let files: [String: String]
    private let source: String
    /// The path template read once, when a parameter is in the path.
    private let pathTemplate: PathValues.Template?

    /// At most this many schema errors of one body become violations; the rest are counted.
    public static let maxBodyViolations = 20

    /// - Parameter source: the contract file the description comes from, relative to the
    ///   contracts folder (`products/create.json`): its schemas' relative `$ref`s resolve from there.
    /// - Throws: when a schema does not compile (a reference to a file the description lacks).
    public init(_ description: RequestDescription, source: String) throws(SchemaCompilationError) {
        self.description = description
        self.source = source
        pathTemplate = description.parameters.contains { $0.location == .path } ? PathValues.Template(description.pathTemplate) : nil
        var registry = SchemaRegistry()
        var files: [String: String] = [:]
        for file in description.schemaFiles {
            for uri in [Self.uri(file: file.path)] + file.uris {
                registry.register(file.document, uri: uri)
                files[uri] = file.path
            }
        }
        self.files = files
        let session = SchemaCompilationSession(registry: registry, assertsFormats: description.assertsFormats)
        func compile(_ schema: JSONValue?, _ pointer: JSONPointer?) throws(SchemaCompilationError) -> JSONSchema? {
            guard let schema else { return nil }
            let uri = Self.uri(file: source) + "?schema=" + (pointer ?? .root).description
            return try session.compile(schema, uri: uri)
        }
        var schemas: [JSONSchema?] = []
        for parameter in description.parameters { schemas.append(try compile(parameter.schema, parameter.schemaPointer)) }
        parameterSchemas = schemas
        parameterTypes = description.parameters.map { SchemaTypes($0.schema) }
        bodySchema = try compile(description.body?.schema, description.body?.schemaPointer)
    }

    /// Whether the description holds a request to anything at all: an endpoint that describes no
    /// parameter, header or body takes any request, and its callers need not read one.
    public var checksNothing: Bool {
        description.parameters.isEmpty && description.headers.allSatisfy { Self.clientManaged.contains($0.name.lowercased()) } && description.body == nil
    }

    /// Every way `request` breaks the description; none when it does not.
    public func check(_ request: WireRequest) -> [RequestViolation] {
        var violations: [RequestViolation] = []
        let pathValues = pathTemplate.map { PathValues.read(request.path, template: $0) } ?? [:]
        for (index, parameter) in description.parameters.enumerated() {
            let texts: [String]
            switch parameter.location {
            case .path: texts = pathValues[parameter.name].map { [$0] } ?? []
            case .query: texts = request.query.filter { $0.name == parameter.name }.map(\.value)
            case .header: texts = request.values(ofHeader: parameter.name)
            }
            let part = RequestViolation.Part(parameter.location)
            guard !texts.isEmpty else {
                if parameter.required, parameter.location != .path {
                    violations.append(RequestViolation(
                        part: part, name: parameter.name, keyword: "required",
                        message: "expected the required \(parameter.location.rawValue) parameter '\(parameter.name)', found none"))
                }
                continue
            }
            guard let schema = parameterSchemas[index] else { continue }
            guard let value = Self.refused(texts, of: parameter, types: parameterTypes[index], by: schema) else { continue }
            let hidden = isSecret(parameter)
            for error in Self.explaining(schema.validate(value).errors) {
                violations.append(RequestViolation(
                    part: part, name: parameter.name, pointer: Self.place(of: error), keyword: error.keyword,
                    message: hidden ? "the value sent breaks its schema (not shown: it may be a secret)" : error.message,
                    schemaLocation: display(error.absoluteKeywordLocation)))
            }
        }
        for header in description.headers where !Self.clientManaged.contains(header.name.lowercased()) {
            guard !description.parameters.contains(where: { $0.location == .header && $0.name.lowercased() == header.name.lowercased() }),
                request.values(ofHeader: header.name).isEmpty
            else { continue }
            violations.append(RequestViolation(
                part: .header, name: header.name, keyword: "required",
                message: "expected header '\(header.name)' (the contract sends it with every request), found none"))
        }
        if let body = description.body { violations += check(request, against: body) }
        return violations
    }

    /// Headers a contract may send that an app's request need not: `Accept` (left out, it
    /// accepts anything), `Content-Type` (held to the body's instead), and those the HTTP client
    /// writes itself, which a test's stub may never see (`User-Agent`, `Accept-Encoding`…).
    static let clientManaged: Set<String> = [
        "accept", "content-type", "user-agent", "accept-encoding", "accept-language", "connection", "host", "content-length",
    ]

    private func check(_ request: WireRequest, against body: RequestDescription.Body) -> [RequestViolation] {
        let sent = request.values(ofHeader: "Content-Type").first
        let wrongType = sent.map({ MediaType.essence($0) != MediaType.essence(body.contentType) }) ?? true
        let typeViolation = RequestViolation(
            part: .header, name: "Content-Type", keyword: "contentType",
            message: "expected Content-Type '\(body.contentType)', found \(sent.map { "'\(MessageText.clipped($0))'" } ?? "none")")
        // A body the carrier cannot show (an upload task's) is not checked, rather than called
        // missing; the Content-Type it declares still is.
        guard !request.bodyIsUnseen else { return sent != nil && wrongType ? [typeViolation] : [] }
        guard let bytes = request.body, !bytes.isEmpty else {
            guard body.required else { return [] }
            return [RequestViolation(part: .body, keyword: "required", message: "expected a body (\(body.contentType)), found none")]
        }
        var violations: [RequestViolation] = wrongType ? [typeViolation] : []
        guard let schema = bodySchema, MediaType.isJSON(body.contentType) else { return violations }
        let tape: JSONTape
        do {
            tape = try JSONParser().parseTape(bytes)
        } catch {
            violations.append(RequestViolation(
                part: .body, keyword: "json",
                message: "expected a JSON body, found invalid JSON at line \(error.location.line), column \(error.location.column): \(error.message)"))
            return violations
        }
        guard !schema.isValid(tape) else { return violations }
        let result = schema.validate(tape, keepingAtMost: Self.maxBodyViolations)
        for error in Self.explaining(result.errors) {
            let place = Self.place(of: error)
            // A member whose name may hold a credential (`password`, `apiKey`…), or inside one: its
            // value is not quoted, as a parameter of such a name is not, since the message reaches
            // logs, the journal and usage records.
            let hidden = place.tokens.contains { CredentialNames.mayBeCredential($0.lowercased()) }
            violations.append(RequestViolation(
                part: .body, pointer: place, keyword: error.keyword,
                message: hidden ? "the value sent breaks its schema (not shown: it may be a secret)" : error.message,
                schemaLocation: display(error.absoluteKeywordLocation)))
        }
        if result.omitted > 0 {
            violations.append(RequestViolation(
                part: .body, keyword: "more", message: "and \(result.omitted) more schema errors in this body, not listed (the first \(result.errors.count) are)"))
        }
        return violations
    }

    /// The reading of a parameter's texts the schema refuses, to report; nil when it accepts one
    /// of the texts' readings (``ParameterWire/candidates(of:schema:separator:)``). A parameter
    /// whose schema takes no array and that is sent more than once has each value checked: a
    /// server may read any of them.
    static func refused(_ texts: [String], of parameter: RequestDescription.Parameter, types: SchemaTypes, by schema: JSONSchema) -> JSONValue? {
        let separator = parameter.itemSeparator
        let groups = texts.count > 1 && !types.allowsArray && separator == nil ? texts.map { [$0] } : [texts]
        for group in groups {
            // The reading the schema's `type` asks for first: the others are made only when it fails.
            let declared = ParameterWire.value(of: group, types: types, separator: separator)
            guard !schema.isValid(declared) else { continue }
            let others = ParameterWire.candidates(of: group, schema: parameter.schema, separator: separator).dropFirst()
            if !others.contains(where: { schema.isValid($0) }) { return declared }
        }
        return nil
    }

    /// Where the error is: a member no schema allows is pointed at itself (`/nme`), not its object.
    static func place(of error: ValidationError) -> JSONPointer {
        error.unexpectedMember.map { error.instanceLocation.appending($0) } ?? error.instanceLocation
    }

    /// Every error but the summaries (`anyOf`, `oneOf`, `allOf`, `false`) that a more specific error
    /// at the same place or below explains: an object missing `name` and holding `nme` is two
    /// errors at one place, both worth reading.
    static func explaining(_ errors: [ValidationError]) -> [ValidationError] {
        let summaries: Set<String> = ["anyOf", "oneOf", "allOf", "false"]
        let specific = errors.filter { !summaries.contains($0.keyword) }
        return errors.filter { error in
            !summaries.contains(error.keyword) || !specific.contains { $0.instanceLocation.tokens.starts(with: error.instanceLocation.tokens) }
        }
    }

    /// A parameter whose value must never be shown: one named as a credential (a header or a
    /// query parameter: `Authorization`, `api_key`, `X-Signature`), and a header the endpoint
    /// sends with a placeholder (which may hold a secret).
    private func isSecret(_ parameter: RequestDescription.Parameter) -> Bool {
        let lowered = parameter.name.lowercased()
        if CredentialNames.mayBeCredential(lowered) { return true }
        return parameter.location == .header && description.headers.contains { $0.name.lowercased() == lowered && $0.value == nil }
    }

    static func uri(file: String) -> String { "file:///" + file }

    /// `schemas/new-product.json#/properties/price/type`, or `products/create.json#/request/schema/…`
    /// for an inline schema: the file a person would open.
    func display(_ location: String) -> String {
        let hash = location.firstIndex(of: "#") ?? location.endIndex
        let base = String(location[..<hash])
        var fragment = hash < location.endIndex ? String(location[location.index(after: hash)...]) : ""
        var file: String
        if let known = files[base] {
            file = known
        } else if base.hasPrefix("file:///") {
            file = String(base.dropFirst("file:///".count))
            if let query = file.range(of: "?schema=") {
                let inline = String(file[query.upperBound...])
                file = String(file[..<query.lowerBound])
                fragment = (inline == "/" ? "" : inline) + fragment
            }
        } else {
            return location
        }
        return fragment.isEmpty ? file : file + "#" + fragment
    }
}

extension RequestViolation.Part {
    init(_ location: ParameterLocation) {
        switch location {
        case .path: self = .path
        case .query: self = .query
        case .header: self = .header
        }
    }
}
