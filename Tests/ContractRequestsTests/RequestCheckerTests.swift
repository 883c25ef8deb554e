import ContractJSON
import ContractRequests
import Testing

/// The one check of a request against its endpoint's description, on descriptions written the
/// way fixtures carry them: parameters read on the wire as their schemas ask, headers, the body.
struct RequestCheckerTests {
    static func json(_ text: String) -> JSONValue {
        (try? JSONParser().parse(Array(text.utf8)).value) ?? .null
    }

    static let description = RequestDescription(
        method: "POST", pathTemplate: "/shops/{shop}/items/{id}.json",
        parameters: [
            .init(location: .path, name: "id", required: true, schema: json(#"{"type": "integer", "minimum": 1}"#), schemaPointer: JSONPointer(tokens: ["request", "parameters", "path", "id", "schema"])),
            .init(location: .path, name: "shop", required: true, schema: json(#"{"type": "string", "maxLength": 5}"#)),
            .init(location: .query, name: "tags", required: false, schema: json(#"{"type": "array", "items": {"type": "integer"}}"#)),
            .init(location: .query, name: "ids", required: false, schema: json(#"{"type": "array", "items": {"type": "integer"}}"#), style: .pipeDelimited),
            .init(location: .query, name: "mode", required: true, schema: json(#"{"enum": ["fast", "slow"]}"#)),
            .init(location: .header, name: "X-Api-Key", required: true, schema: json(#"{"type": "string", "minLength": 30}"#)),
        ],
        headers: [.init(name: "Accept", value: "application/json"), .init(name: "X-Tenant")],
        body: .init(contentType: "application/json", schema: json(#"{"$ref": "../schemas/item.json"}"#), schemaPointer: JSONPointer(tokens: ["request", "schema"])),
        schemaFiles: [.init(path: "schemas/item.json", document: json(#"""
            {"type": "object", "required": ["name"], "additionalProperties": false,
             "properties": {"name": {"type": "string"}, "price": {"$ref": "money.json"}}}
            """#)), .init(path: "schemas/money.json", document: json(#"{"type": "number", "minimum": 0}"#))])

    static let checker = try! RequestChecker(description, source: "items/create.json")

    static func request(path: String = "/shops/main/items/7.json", query: [(String, String)] = [("mode", "fast")],
        headers: [(String, String)] = [("X-Api-Key", String(repeating: "k", count: 32)), ("X-Tenant", "t1"), ("Content-Type", "application/json")],
        body: String? = #"{"name": "Pen", "price": 2}"#) -> WireRequest {
        WireRequest(
            method: "POST", path: path, query: query.map { .init(name: $0.0, value: $0.1) }, headers: headers.map { .init(name: $0.0, value: $0.1) },
            body: body.map { Array($0.utf8) })
    }

    @Test func aRequestThatKeepsTheDescriptionHasNoViolations() {
        #expect(Self.checker.check(Self.request()).isEmpty)
        // Arrays as the style writes them; a percent-encoded path segment decoded; Accept left out.
        #expect(Self.checker.check(Self.request(path: "/shops/m%C3%A4/items/7.json", query: [("mode", "slow"), ("tags", "1"), ("tags", "2"), ("ids", "3|4")])).isEmpty)
    }

    /// A body member whose name may hold a credential: its value broke its schema, and the
    /// message, which reaches the server's log, journal and usage records, does not quote it.
    @Test func aBodyMemberNamedLikeACredentialIsNotQuoted() throws {
        let schema = #"{"type": "object", "properties": {"user": {"type": "string", "pattern": "^[a-z]+$"}, "password": {"type": "string", "pattern": "^[0-9]+$"}, "keys": {"type": "array", "items": {"type": "string", "maxLength": 3}}}}"#
        let login = RequestDescription(
            method: "POST", pathTemplate: "/login", parameters: [], headers: [],
            body: .init(contentType: "application/json", schema: Self.json(schema)))
        let violations = try RequestChecker(login, source: "login.json").check(WireRequest(
            method: "POST", path: "/login", query: [], headers: [.init(name: "Content-Type", value: "application/json")],
            body: Array(#"{"user": "Bob1", "password": "hunter2-my-real-password", "keys": ["private-one"]}"#.utf8)))
        let shown = violations.map(\.description).joined(separator: "\n")
        #expect(violations.count == 3, "\(shown)")
        #expect(!shown.contains("hunter2") && !shown.contains("private-one"), "\(shown)")
        #expect(shown.contains("body /password: the value sent breaks its schema (not shown: it may be a secret)"), "\(shown)")
        #expect(shown.contains("body /keys/0: the value sent breaks its schema (not shown: it may be a secret)"), "\(shown)")
        #expect(shown.contains("Bob1"), "a member of another name is quoted: \(shown)")
    }

    @Test func eachBrokenPartIsNamedWithItsPointerAndKeyword() {
        let violations = Self.checker.check(Self.request(
            path: "/shops/toolong/items/0.json", query: [("tags", "1"), ("tags", "x"), ("ids", "1|y")],
            headers: [("X-Api-Key", "short-secret"), ("Content-Type", "text/plain")], body: #"{"nme": "Pen", "price": -1}"#))
        let shown = violations.map(\.description)
        #expect(shown.contains("path parameter 'id': expected a number >= 1, found 0 [minimum] (items/create.json#/request/parameters/path/id/schema/minimum)"), "\(shown)")
        #expect(shown.contains { $0.hasPrefix("path parameter 'shop': ") && $0.contains("[maxLength]") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query parameter 'tags' /1: expected integer, found string 'x' [type]") }, "\(shown)")
        #expect(shown.contains { $0.hasPrefix("query parameter 'ids' /1: expected integer") }, "\(shown)")
        #expect(shown.contains("query parameter 'mode': expected the required query parameter 'mode', found none [required]"), "\(shown)")
        #expect(shown.contains("header 'X-Tenant': expected header 'X-Tenant' (the contract sends it with every request), found none [required]"), "\(shown)")
        #expect(shown.contains("header 'Content-Type': expected Content-Type 'application/json', found 'text/plain' [contentType]"), "\(shown)")
        #expect(shown.contains { $0.hasPrefix("body /nme: unexpected property 'nme'") && $0.hasSuffix("(schemas/item.json#/additionalProperties)") }, "\(shown)")
        #expect(shown.contains("body: missing required property 'name' [required] (schemas/item.json#/required)"), "\(shown)")
        #expect(shown.contains("body /price: expected a number >= 0, found -1 [minimum] (schemas/money.json#/minimum)"), "\(shown)")
        // A credential-like header's value is never shown.
        let key = violations.first { $0.name == "X-Api-Key" }
        #expect(key?.keyword == "minLength")
        #expect(key?.message.contains("short-secret") == false)
        #expect(!shown.joined().contains("short-secret"))
    }

    @Test func aMissingOrUnreadableBodyIsNamed() {
        #expect(Self.checker.check(Self.request(body: nil)).map(\.description) == ["body: expected a body (application/json), found none [required]"])
        let broken = Self.checker.check(Self.request(body: "{\"name\": "))
        #expect(broken.map(\.keyword) == ["json"])
        #expect(broken.first?.message.hasPrefix("expected a JSON body, found invalid JSON at line 1, column 10") == true, "\(broken)")
    }

    /// A body with more errors than a message should hold lists the first ones and counts the rest.
    @Test func manyBodyErrorsAreCountedNotListed() throws {
        let members = (0..<100).map { "\"m\($0)\": 1" }.joined(separator: ", ")
        let violations = Self.checker.check(Self.request(body: "{\"name\": \"x\", \(members)}"))
        #expect(violations.count == RequestChecker.maxBodyViolations + 1)
        #expect(violations.last?.message == "and 80 more schema errors in this body, not listed (the first 20 are)")
    }

    /// The description's JSON is read back as written, and what it reads checks the same.
    @Test func theDescriptionRoundTripsThroughItsJSON() throws {
        let read = try RequestDescription(json: Self.description.json)
        #expect(read == Self.description)
        #expect(try RequestChecker(read, source: "items/create.json").check(Self.request()).isEmpty)
    }

    @Test func aDescriptionThatCannotBeReadNamesThePlace() {
        let error = #expect(throws: RequestDescriptionError.self) {
            try RequestDescription(json: Self.json(#"{"method": "GET", "pathTemplate": "/", "parameters": {"query": {"a": {"style": "matrix"}}}}"#), at: JSONPointer(tokens: ["endpoint"]))
        }
        #expect(error?.description == "/endpoint/parameters/query/a/style: 'style' is not one of form, simple, spaceDelimited, pipeDelimited")
    }

    /// A schema that names a file the description does not carry is refused when compiled, not
    /// taken for a pass.
    @Test func aSchemaReachingAMissingFileDoesNotCompile() {
        var description = Self.description
        description.schemaFiles.removeLast()
        #expect(throws: (any Error).self) { try RequestChecker(description, source: "items/create.json") }
    }

    @Test func theProblemListsEveryViolation() throws {
        let violations = Self.checker.check(Self.request(body: #"{"price": "1"}"#))
        let bytes = RequestProblem.invalidRequest(method: "POST", path: "/shops/main/items/7.json", contract: "items.create", caseName: "created", violations: violations)
        let problem = try JSONParser().parse(bytes).value
        #expect(problem.objectValue?["type"]?.stringValue == RequestProblem.invalidRequestType)
        #expect(problem.objectValue?["status"] == .number(JSONNumber(400)))
        #expect(problem.objectValue?["case"]?.stringValue == "created")
        let listed = problem.objectValue?["violations"]?.arrayValue ?? []
        #expect(listed.count == violations.count)
        let pointers = listed.compactMap { $0.objectValue?["pointer"]?.stringValue }
        #expect(pointers.contains("/price"))
    }
}

/// What the attack on the checks found, each now held.
struct RequestCheckerReadingTests {
    static func json(_ text: String) -> JSONValue { RequestCheckerTests.json(text) }

    static func checker(_ parameters: [RequestDescription.Parameter], body: RequestDescription.Body? = nil) throws -> RequestChecker {
        try RequestChecker(
            RequestDescription(method: "GET", pathTemplate: "/p/{id}", parameters: parameters, body: body,
                schemaFiles: [.init(path: "schemas/id.json", document: json(#"{"type": "integer", "minimum": 1}"#))]),
            source: "p.json")
    }

    static func request(path: String = "/p/1", query: [(String, String)] = [], headers: [(String, String)] = [], body: String? = nil) -> WireRequest {
        WireRequest(method: "GET", path: path, query: query.map { .init(name: $0.0, value: $0.1) }, headers: headers.map { .init(name: $0.0, value: $0.1) },
            body: body.map { Array($0.utf8) })
    }

    /// A schema that names its type through `$ref`, a combinator or an `enum` takes the text as
    /// whichever reading it accepts; a value it refuses is still named.
    @Test func aTypeNamedThroughAReferenceOrACombinatorReadsTheText() throws {
        let checker = try Self.checker([
            .init(location: .path, name: "id", required: true, schema: Self.json(#"{"$ref": "schemas/id.json"}"#)),
            .init(location: .query, name: "n", required: false, schema: Self.json(#"{"oneOf": [{"type": "integer"}, {"enum": ["all"]}]}"#)),
            .init(location: .query, name: "e", required: false, schema: Self.json(#"{"enum": [1, 2]}"#)),
            .init(location: .query, name: "ids", required: false, schema: Self.json(#"{"type": "array", "items": {"$ref": "schemas/id.json"}}"#), explode: false),
            .init(location: .query, name: "b", required: false, schema: Self.json(#"{"allOf": [{"type": "boolean"}]}"#)),
        ])
        #expect(checker.check(Self.request(path: "/p/42", query: [("n", "5"), ("e", "1"), ("ids", "1,2"), ("b", "true")])).isEmpty)
        #expect(checker.check(Self.request(query: [("n", "all")])).isEmpty)
        let refused = checker.check(Self.request(path: "/p/abc", query: [("e", "3"), ("ids", "1,x")])).map(\.description)
        #expect(refused.contains { $0.hasPrefix("path parameter 'id': expected integer, found string 'abc' [type] (schemas/id.json#/type)") }, "\(refused)")
        #expect(refused.contains { $0.hasPrefix("query parameter 'e': expected one of") }, "\(refused)")
        #expect(refused.contains { $0.hasPrefix("query parameter 'ids' /1: expected integer") }, "\(refused)")
    }

    /// `1, 2` is how RFC 9110 writes a list in a header; a repeated scalar has each value checked.
    @Test func listsWithSpacesAndRepeatedValues() throws {
        let checker = try Self.checker([
            .init(location: .header, name: "X-Ids", required: false, schema: Self.json(#"{"type": "array", "items": {"type": "integer"}}"#)),
            .init(location: .query, name: "num", required: false, schema: Self.json(#"{"type": "integer"}"#)),
        ])
        #expect(checker.check(Self.request(headers: [("X-Ids", "1, 2,\t3")])).isEmpty)
        #expect(checker.check(Self.request(query: [("num", "1"), ("num", "2")])).isEmpty)
        #expect(checker.check(Self.request(query: [("num", "1"), ("num", "abc")])).map(\.keyword) == ["type"])
    }

    /// A query parameter named as a credential never has its value shown.
    @Test func aSecretQueryValueIsNotShown() throws {
        let checker = try Self.checker([.init(location: .query, name: "api_key", required: false, schema: Self.json(#"{"type": "string", "minLength": 40}"#))])
        let shown = checker.check(Self.request(query: [("api_key", "sk_live_SECRETQUERY")])).map(\.description).joined()
        #expect(shown.contains("minLength"))
        #expect(!shown.contains("SECRETQUERY"))
    }

    /// A body the contract's own cases sometimes leave out is not required; one the carrier cannot
    /// show (an upload task's) is not called missing.
    @Test func anOptionalOrUnseenBodyIsNotCalledMissing() throws {
        let body = RequestDescription.Body(contentType: "application/json", schema: Self.json(#"{"type": "object"}"#), required: false)
        let optional = try Self.checker([], body: body)
        #expect(optional.check(Self.request()).isEmpty)
        var required = body
        required.required = true
        let strict = try Self.checker([], body: required)
        #expect(strict.check(Self.request()).map(\.keyword) == ["required"])
        var unseen = Self.request(headers: [("Content-Type", "application/json")])
        unseen.bodyIsUnseen = true
        #expect(strict.check(unseen).isEmpty)
        unseen.headers = [.init(name: "Content-Type", value: "text/plain")]
        #expect(strict.check(unseen).map(\.keyword) == ["contentType"])
        #expect(try RequestDescription(json: RequestDescription(method: "GET", pathTemplate: "/", body: body).json).body?.required == false)
    }
}
