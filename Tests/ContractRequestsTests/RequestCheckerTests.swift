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
