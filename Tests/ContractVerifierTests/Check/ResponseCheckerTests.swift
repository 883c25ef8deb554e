import ContractHTTP
import ContractModel
import TestSupport
import Testing

@testable import ContractVerifier

/// The check stage on responses built by hand: every rule, and what its finding says.
struct ResponseCheckerTests {
    let set = Fixtures.tree
    let bindings = Bindings(environment: ["TOKEN": "s3cret"])

    func findings(_ response: HTTPResponse, caseNamed name: String = "found") throws -> [Finding] {
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.environment = ["TOKEN": "s3cret"]
        let plan = try VerifyPlan(set, options: options)
        let planned = try #require(plan.cases.first { $0.testCase.name == name })
        let checker = ResponseChecker(catalog: SchemaCatalog(set))
        return checker.check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: bindings)
    }

    func json(_ status: Int, _ body: String, contentType: String = "application/json") -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", contentType), HTTPHeader("X-Token", "s3cret")], body: Array(body.utf8))
    }

    @Test func aMatchingResponseHasNoFindings() throws {
        #expect(try findings(json(200, #"{"id": 1, "name": "Pencil", "price": 1.5, "createdAt": "2026-01-05T09:30:00Z"}"#)).isEmpty)
    }

    @Test func everySchemaErrorWithPointerKeywordLocationAndExcerpt() throws {
        let found = try findings(json(200, #"{"id": 1, "name": "Pencil", "price": "1,50", "created_at": "2026-01-05"}"#))
        #expect(found.map(\.message) == [
            "/price: expected number, found string '1,50'",
            "/: unexpected property 'created_at', did you mean 'createdAt'?",
        ])
        #expect(found[0].pointer == "/price")
        #expect(found[0].keyword == "type")
        #expect(found[0].schemaLocation == "c/schemas/product.json#/properties/price/type")
        #expect(found[0].excerpt?.contains(#""price": "1,50""#) == true)
    }

    @Test func statusHeadersAndContentType() throws {
        let response = HTTPResponse(status: 500, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<html>".utf8))
        let found = try findings(response)
        // The body of a status the case does not accept is shown, not checked against the 200 schema.
        #expect(found.map(\.kind) == [.status, .header, .header])
        #expect(found[0].message == "expected status 200, found 500 (the body was not checked: the contract describes the body of a 200 response)")
        #expect(found[0].excerpt == "<html>")
        #expect(found[1].message == "expected header 'Content-Type' to match '^application/json', found 'text/html'")
        // The expected value of a header is a secret here: it is shown masked.
        #expect(found[2].message == "expected header 'X-Token' to be '***', found none")
        let wrongBody = try findings(HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/html")], body: Array("<html>".utf8)))
        #expect(wrongBody.map(\.kind) == [.header, .header, .contentType, .body])
        #expect(wrongBody.count == 4 && wrongBody[3].message.hasPrefix("expected a JSON body, found invalid JSON at line 1, column 1"))
    }

    @Test func statusClasses() throws {
        #expect(try findings(HTTPResponse(status: 404, headers: [], body: []), caseNamed: "anonymous").isEmpty)
        #expect(try findings(HTTPResponse(status: 503, headers: [], body: []), caseNamed: "anonymous").map(\.message) == ["expected status 4XX, found 503"])
    }

    @Test func jsonMediaTypes() {
        #expect(MediaType.isJSON("application/json; charset=utf-8"))
        #expect(MediaType.isJSON("application/problem+json"))
        #expect(!MediaType.isJSON("text/json+html"))
        #expect(!MediaType.isJSON(nil))
    }

    @Test func excerptsStayOnOneLineAndWhole() {
        let body = Array(("{\n  \"name\": \"" + String(repeating: "é", count: 60) + "\"\n}").utf8)
        let excerpt = BodyExcerpt.around(body, offset: 20, secrets: Secrets([]))
        #expect(!excerpt.contains("\n"))
        #expect(!excerpt.contains("\u{FFFD}"))
    }
}

/// A body with a great many schema errors: a bounded number of findings and a count of the rest,
/// found in time linear in the body (positions are never counted per finding from a line's start).
struct ManyFindingsTests {
    @Test func findingsPerBodyAreCappedAndTheRestCounted() throws {
        let set = Fixtures.load(["list.json": """
            { "id": "list", "request": { "method": "GET", "path": "/l" },
              "cases": [ { "name": "all", "response": { "status": 200, "schema": { "items": { "type": "integer" } } } } ] }
            """])
        let plan = try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1"))
        let planned = try #require(plan.cases.first)
        // One line, 200,000 wrong items: a quadratic position count took half a minute here.
        let body = "[" + Array(repeating: #""x""#, count: 200_000).joined(separator: ",") + "]"
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
        let checker = ResponseChecker(catalog: SchemaCatalog(set))
        let found = checker.check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: Bindings(environment: [:]))
        #expect(found.count == ResponseChecker.maxBodyFindings + 1)
        #expect(found.first?.pointer == "/0" && found[99].pointer == "/99")
        #expect(found.last?.message == "and 199,900 more schema errors in this body, not listed (the first 100 are)")
        #expect(found[99].excerpt?.contains(#""x""#) == true)
    }

    func check(_ body: String, schema: String) throws -> [Finding] {
        let set = Fixtures.load(["one.json": """
            { "id": "one", "request": { "method": "GET", "path": "/o" },
              "cases": [ { "name": "a", "response": { "status": 200, "schema": \(schema) } } ] }
            """])
        let planned = try #require(try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1")).cases.first)
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(body.utf8))
        return ResponseChecker(catalog: SchemaCatalog(set))
            .check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: Bindings(environment: [:]))
    }

    /// What was expected, for reports: the schema object that holds the failing keyword, as
    /// written; a long one cut to its title, type and that keyword.
    @Test func schemaFindingsQuoteTheSchemaThatFailed() throws {
        let properties = (0..<40).map { #""p\#($0)": { "type": "string", "description": "a long enough description" }"# }.joined(separator: ", ")
        let set = Fixtures.load(["one.json": """
            { "id": "one", "request": { "method": "GET", "path": "/o" },
              "cases": [ { "name": "a", "response": { "status": 200, "schema": {
                "title": "Big", "type": "object", "required": ["p0"], "properties": { "n": { "type": "integer", "minimum": 1 }, \(properties) } } } } ] }
            """])
        let plan = try VerifyPlan(set, options: VerifyOptions(baseURL: "http://127.0.0.1:1"))
        let planned = try #require(plan.cases.first)
        let response = HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Array(#"{"n": 0}"#.utf8))
        let found = ResponseChecker(catalog: plan.catalog)
            .check(response, against: planned.testCase.response, schema: planned.responseSchema, bindings: Bindings(environment: [:]))
        #expect(found.map(\.keyword) == ["required", "minimum"])
        #expect(found.map(\.schemaExcerpt) == [#"{"title":"Big","type":"object","required":["p0"], …}"#, #"{"type":"integer","minimum":1}"#])
    }

    /// Suggesting a name for each unexpected member looked at every member again: quadratic. The
    /// check of 5,000 and of 20,000 unexpected members, in this thread's CPU time: about 4 times
    /// the cost when linear, 16 when quadratic.
    @Test func manyUnexpectedMembersStayLinear() throws {
        let bodies = Dictionary(uniqueKeysWithValues: [5_000, 20_000].map { count in
            (count, "{" + (0..<count).map { "\"k\($0)\": 0" }.joined(separator: ",") + "}")
        })
        let schema = #"{ "properties": { "id": {} }, "additionalProperties": false }"#
        var found: [Finding] = []
        let growth = try Growth.cpuRatio(size: 5_000) { count in found = try check(bodies[count]!, schema: schema) }
        #expect(found.count == 101 && found.last?.message.hasPrefix("and 19,900 more") == true)
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the members cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    /// A megabyte member name makes a finding of a few hundred bytes, not a megabyte.
    @Test func longMemberNamesAreClippedInPointersAndMessages() throws {
        let key = String(repeating: "k", count: 1 << 20)
        let found = try check("{\"\(key)\": 1}", schema: #"{ "additionalProperties": { "type": "string" } }"#)
        #expect(found.count == 1)
        #expect((found.first?.pointer?.count ?? .max) <= ResponseChecker.maxPointerToken + 2)
        #expect((found.first?.message.count ?? .max) < 400)
    }

    @Test func countsAreGroupedByThousands() {
        #expect(ResponseChecker.grouped(0) == "0")
        #expect(ResponseChecker.grouped(999) == "999")
        #expect(ResponseChecker.grouped(1_000) == "1,000")
        #expect(ResponseChecker.grouped(99_990) == "99,990")
        #expect(ResponseChecker.grouped(1_234_567) == "1,234,567")
    }
}
