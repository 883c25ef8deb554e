import ContractJSON
import ContractSchema

/// One fixture file written by `contract fixtures` (format 2): the request its case sends, the
/// answer it gives, and what any request to its endpoint must be. The one reader of the format,
/// without Foundation: the stubs (`ContractTesting`) and the mock server (`contract serve`, and
/// the in-process server for UI tests) read fixtures with it, so they answer alike.
public struct FixtureFile: Sendable, Hashable {
    /// The fixture format this reader reads; an older file says to write the fixtures again.
    public static let formatVersion = 2

    public var contract: String
    public var caseName: String
    public var method: String
    /// `/api/products/{id}`.
    public var pathTemplate: String
    /// The query items the case sends.
    public var query: [Route.QueryItem]
    public var status: Int
    /// The answer's headers, in the fixture's order.
    public var headers: [WireRequest.Field]
    /// The answer's body as sent: JSON written compactly, text as UTF-8, or the decoded bytes of
    /// a binary body; nil when the answer has none.
    public var body: [UInt8]?
    /// What any request to the endpoint must be: parameters, headers, body.
    public var endpoint: RequestDescription
    /// The contract file, relative to the contracts folder: its schemas' `$ref`s resolve from there.
    public var source: String

    /// `products.get/found`.
    public var name: String { "\(contract)/\(caseName)" }

    /// The fixture as a route of a ``RouteTable``.
    public var route: Route {
        Route(
            contract: contract, caseName: caseName, method: method, pathTemplate: pathTemplate, query: query, status: status,
            describedQuery: endpoint.describedQuery)
    }

    public init(
        contract: String, caseName: String, method: String, pathTemplate: String, query: [Route.QueryItem] = [], status: Int,
        headers: [WireRequest.Field] = [], body: [UInt8]? = nil, endpoint: RequestDescription, source: String = ""
    ) {
        self.contract = contract
        self.caseName = caseName
        self.method = method
        self.pathTemplate = pathTemplate
        self.query = query
        self.status = status
        self.headers = headers
        self.body = body
        self.endpoint = endpoint
        self.source = source
    }

    /// Reads a fixture file's JSON.
    /// - Parameters:
    ///   - file: the file as messages name it.
    ///   - reader: what reads it, as an outdated file's message names it (`ContractTesting`).
    ///   - endpoints: descriptions already read, by contract and source: the cases of one
    ///     endpoint carry the same description, read once.
    public init(
        json: JSONValue, file: String, reader: String, endpoints: inout [String: RequestDescription]
    ) throws(FixtureFileError) {
        func invalid(_ message: String) -> FixtureFileError {
            FixtureFileError(.invalid, "\(file): \(message)", file: file)
        }
        guard let object = json.objectValue else { throw invalid("not a fixture written by contract fixtures (not a JSON object)") }
        guard object["format"]?.stringValue == "contract-fixture", let version = object["version"]?.numberValue?.intValue else {
            guard object["request"] != nil, object["response"] != nil else { throw invalid("not a fixture written by contract fixtures") }
            throw FixtureFileError(
                .outdated,
                "\(file) was written by an older contract fixtures (format 1, without the endpoint's request description); "
                    + "run 'contract fixtures --out \(Self.folder(of: file)) CONTRACTS' again", file: file)
        }
        guard version == Self.formatVersion else {
            throw FixtureFileError(
                .outdated,
                version < Self.formatVersion
                    ? "\(file) is fixture format \(version); this \(reader) reads format \(Self.formatVersion): run 'contract fixtures --out \(Self.folder(of: file)) CONTRACTS' again"
                    : "\(file) is fixture format \(version), newer than this \(reader) reads (\(Self.formatVersion)): update the contract package",
                file: file)
        }
        guard let contract = object["contract"]?.stringValue, let caseName = object["case"]?.stringValue,
            let request = object["request"]?.objectValue, let response = object["response"]?.objectValue,
            let method = request["method"]?.stringValue, let template = request["pathTemplate"]?.stringValue,
            let status = response["status"]?.numberValue?.intValue, let endpointJSON = object["endpoint"]
        else { throw invalid("not a fixture written by contract fixtures (a member it needs is missing)") }
        guard (100...599).contains(status) else { throw invalid("the response's status \(status) is not an HTTP status (100 to 599)") }
        // Both are sent back in every answer (`Contract-Case: contract/case`): lint refuses a
        // control character in an id or a case name, and a hand-edited fixture must not bring one.
        for (member, text) in [("contract", contract), ("case", caseName)] {
            if let bad = FieldSyntax.forbiddenCharacter(inValue: text) {
                throw invalid("its '\(member)' holds \(String(bad).debugDescription), which the answer's Contract-Case header cannot carry")
            }
        }
        self.contract = contract
        self.caseName = caseName
        self.method = method
        pathTemplate = template
        query = (request["query"]?.arrayValue ?? []).map {
            Route.QueryItem(name: $0.objectValue?["name"]?.stringValue ?? "", value: $0.objectValue?["value"]?.stringValue)
        }
        self.status = status
        var headers: [WireRequest.Field] = []
        for pair in response["headers"]?.arrayValue ?? [] {
            guard let name = pair.objectValue?["name"]?.stringValue, let value = pair.objectValue?["value"]?.stringValue else { continue }
            // Served as written, such a field would end the answer's head early (`serve`) or
            // stand for an answer no server can send (the stubs).
            guard FieldSyntax.isToken(name) else {
                throw invalid("the response's header name '\(MessageText.oneLine(name))' is not an HTTP token (letters, digits and !#$%&'*+-.^_`|~)")
            }
            if let bad = FieldSyntax.forbiddenCharacter(inValue: value) {
                throw invalid("the response's header '\(name)' holds \(String(bad).debugDescription), which no header value can carry (RFC 9110 §5.5)")
            }
            headers.append(WireRequest.Field(name: name, value: value))
        }
        self.headers = headers
        if let json = response["body"] {
            body = Array(CanonicalJSONWriter(style: .compact).string(json).utf8)
        } else if let text = response["text"]?.stringValue {
            body = Array(text.utf8)
        } else if let base64 = response["base64"]?.stringValue {
            // Binary bodies, and text in a charset other than UTF-8, are written as their bytes.
            guard let bytes = Base64.decode(base64) else { throw invalid("the response's 'base64' is not base64") }
            body = bytes
        } else {
            body = nil
        }
        source = object["source"]?.stringValue ?? ""
        let key = "\(contract)\u{0}\(source)"
        if let shared = endpoints[key] {
            endpoint = shared
        } else {
            do {
                endpoint = try RequestDescription(json: endpointJSON, at: JSONPointer(tokens: ["endpoint"]))
            } catch {
                throw invalid("its endpoint cannot be read: \(error)")
            }
            endpoints[key] = endpoint
        }
    }

    /// The fixtures folder a file is in: its contract's folder's parent.
    public static func folder(of file: String) -> String {
        let parts = file.split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}

/// Why a fixture file cannot be read: not a fixture at all, or one of another format version.
public struct FixtureFileError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Not a fixture written by `contract fixtures`, or one of its members is wrong.
        case invalid
        /// Written by another version of `contract fixtures`: the message says what to run.
        case outdated
    }

    public var kind: Kind
    public var description: String
    public var file: String

    public init(_ kind: Kind, _ description: String, file: String) {
        self.kind = kind
        self.description = description
        self.file = file
    }
}
