import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The stub holds the app's requests to the contracts: each way a client goes wrong fails the test
/// with one message naming the contract, the place, the keyword and what was sent, and is answered
/// with a 400 problem the client cannot take for success. Real `URLSession` requests, fixtures
/// generated from the example contracts.
struct StrictStubTests {
    struct Sent: Sendable, CustomTestStringConvertible {
        var name: String
        var method = "GET"
        var path: String
        var body: String?
        var contentType: String? = "application/json"
        var authorization = true
        /// What the failure's message must say.
        var says: [String]

        var testDescription: String { name }
    }

    static func send(_ session: URLSession, _ sent: Sent) async throws -> (Int, HTTPURLResponse?, Data) {
        var request = URLRequest(url: URL(string: Market.base + sent.path)!)
        request.httpMethod = sent.method
        request.httpBody = sent.body.map { Data($0.utf8) }
        if let type = sent.contentType, sent.body != nil { request.setValue(type, forHTTPHeaderField: "Content-Type") }
        if sent.authorization { request.setValue("Bearer test-secret-token", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http, data)
    }

    static let broken: [Sent] = [
        Sent(name: "a misspelled body member", method: "POST", path: "/api/products", body: #"{"nme": "Eraser", "price": 0.8, "currency": "KRW"}"#,
            says: ["POST /api/products breaks its contract products.create", "body /nme: unexpected property 'nme', did you mean 'name'? [additionalProperties]",
                "body: missing required property 'name' [required]"]),
        Sent(name: "a member of the wrong type", method: "POST", path: "/api/products", body: #"{"name": "Eraser", "price": "0.8", "currency": "KRW"}"#,
            says: ["body /price: expected number, found string '0.8' [type] (schemas/product.json#/$defs/Price/type)"]),
        Sent(name: "a required member left out", method: "POST", path: "/api/products", body: #"{"name": "Eraser", "price": 0.8}"#,
            says: ["body: missing required property 'currency' [required] (schemas/new-product.json#/required)"]),
        Sent(name: "no Authorization header", method: "POST", path: "/api/products", body: #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#,
            authorization: false, says: ["header 'Authorization': expected header 'Authorization' (the contract sends it with every request), found none [required]"]),
        Sent(name: "a wrong content type", method: "POST", path: "/api/products", body: #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#,
            contentType: "text/plain", says: ["header 'Content-Type': expected Content-Type 'application/json', found 'text/plain' [contentType]"]),
        Sent(name: "a body that is not JSON", method: "POST", path: "/api/products", body: #"{"name": "Eraser","#,
            says: ["body: expected a JSON body, found invalid JSON at line 1, column 19: expected a string key after ',', found end of input [json]"]),
        Sent(name: "a mistyped query parameter", path: "/api/products?page_no=first",
            says: ["query parameter 'page_no': expected integer, found string 'first' [type] (products/list.json#/request/parameters/query/page_no/schema/type)"]),
        Sent(name: "a query parameter out of range", path: "/api/products?page_no=1&items_per_page=500",
            says: ["query parameter 'items_per_page': expected a number <= 100, found 500 [maximum]"]),
        Sent(name: "a mistyped path parameter", path: "/api/products/abc",
            says: [#"GET /api/products/abc breaks its contract products.get"#, "path parameter 'id': expected integer, found string 'abc' [type] (products/get.json#/request/parameters/path/id/schema/type)"]),
    ]

    @Test(arguments: broken)
    func aRequestThatBreaksItsContractFailsTheTestAndGetsAProblem(_ sent: Sent) async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Market.fixtures)
            let (status, response, data) = try await Self.send(stub.makeSession(), sent)
            #expect(status == 400)
            #expect(response?.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
            let problem = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(problem["type"] as? String == "urn:contract:problem:request-breaks-contract")
            #expect(problem["status"] as? Int == 400)
            let violations = try #require(problem["violations"] as? [[String: Any]])
            #expect(!violations.isEmpty)
            #expect(violations.allSatisfy { $0["keyword"] is String && $0["message"] is String && $0["pointer"] is String })
            let kept = stub.invalidRequests
            #expect(kept.count == 1)
            #expect(kept.first?.violations.isEmpty == false)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return sent.says.allSatisfy { text.contains($0) } && !text.contains("test-secret-token")
        }
    }

    /// The same client sending what the contracts describe passes, with the fixtures' answers.
    @Test func correctRequestsPass() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let session = stub.makeSession()
        let good = #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#
        #expect(try await Self.send(session, Sent(name: "create", method: "POST", path: "/api/products", body: good, says: [])).0 == 201)
        #expect(try await Self.send(session, Sent(name: "charset", method: "POST", path: "/api/products", body: good,
            contentType: "application/json; charset=utf-8", says: [])).0 == 201)
        #expect(try await Self.send(session, Sent(name: "list", path: "/api/products?page_no=2&items_per_page=50", says: [])).0 == 200)
        #expect(try await Self.send(session, Sent(name: "list, defaults", path: "/api/products", says: [])).0 == 200)
        #expect(try await Self.send(session, Sent(name: "get", path: "/api/products/42", says: [])).0 == 200)
        #expect(stub.invalidRequests.isEmpty)
        #expect(stub.requests.map(\.fixture) == [
            "products.create/created", "products.create/created", "products.list/first-page", "products.list/first-page", "products.get/found",
        ])
    }

    /// A test that sends a bad request on purpose says so, for the stub or one contract: the
    /// fixture answers, nothing fails, and the violations are still kept.
    @Test func relaxingAStubOrAContractAnswersAndKeepsTheViolations() async throws {
        let sent = Sent(name: "misspelled", method: "POST", path: "/api/products", body: #"{"nme": "Eraser"}"#, says: [])
        let stub = try ContractStub(fixtures: Market.fixtures)
        try stub.allowInvalidRequests(to: "products.create")
        #expect(try await Self.send(stub.makeSession(), sent).0 == 201)
        #expect(stub.invalidRequests.first?.violations.map(\.keyword).contains("additionalProperties") == true)

        let whole = try ContractStub(fixtures: Market.fixtures)
        whole.allowInvalidRequests()
        #expect(try await Self.send(whole.makeSession(), sent).0 == 201)
        await #expect(throws: URLError.self) { try await Self.send(whole.makeSession(), Sent(name: "nowhere", path: "/api/orders/1", says: [])) }
        #expect(whole.unmatchedRequests.count == 1)

        #expect(throws: ContractStubError.self) { try stub.allowInvalidRequests(to: "products.craete") }
    }

    /// A relaxed contract does not relax another: its bad requests still fail the test.
    @Test func relaxingOneContractKeepsTheOthersStrict() async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Market.fixtures)
            try stub.allowInvalidRequests(to: "products.create")
            #expect(try await Self.send(stub.makeSession(), Sent(name: "path", path: "/api/products/abc", says: [])).0 == 400)
            _ = stub.requests
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("products.get")
        }
    }

    /// A case the test chose and the app never asked for is named: `expected request never came`.
    @Test func aChosenCaseNoRequestReachedIsNamed() async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Market.fixtures)
            try stub.use("products.get", case: "missing")
            try stub.use("health.get", case: "ok")
            #expect(try await Self.send(stub.makeSession(), Sent(name: "health", path: "/health", says: [])).0 == 200)
            #expect(stub.expectChosenCasesRequested() == ["products.get/missing"])
        } matching: { issue in
            issue.comments.map(\.rawValue).joined() == "expected request never came: products.get/missing was chosen with use(_:case:), and no request reached it"
        }
    }

    /// Headers an app sets on its session (`httpAdditionalHeaders`) never reach a protocol: the
    /// stub keeps them from `configure(_:)` and checks each request with them.
    @Test func aSessionsAdditionalHeadersCount() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer from-the-session"]
        stub.configure(configuration)
        let session = URLSession(configuration: configuration)
        let sent = Sent(name: "create", method: "POST", path: "/api/products", body: #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#,
            authorization: false, says: [])
        #expect(try await Self.send(session, sent).0 == 201)
        #expect(stub.invalidRequests.isEmpty)
    }

    /// An upload task's body is not shown to a protocol: it is not called missing.
    @Test func anUploadTasksBodyIsNotCalledMissing() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        var request = URLRequest(url: URL(string: Market.base + "/api/products")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let (_, response) = try await stub.makeSession().upload(for: request, from: Data(#"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#.utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(stub.invalidRequests.isEmpty)
    }

    /// A `+` in a query is a space to a server that reads it as a form, and so to the stub.
    @Test func aPlusInAQueryIsASpace() async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Market.fixtures)
            #expect(try await Self.send(stub.makeSession(), Sent(name: "plus", path: "/api/products?page_no=+1", says: [])).0 == 400)
            _ = stub.requests
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("query parameter 'page_no': expected integer, found string ' 1'")
        }
    }

    /// A negative case's own request, relaxed for that case: its fixture answers (the server's
    /// own error body), and the contract's other requests stay strict, the failure's hint naming
    /// the case a negative answer comes from.
    @Test func relaxingANegativeCaseAnswersWithItsFixture() async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        try stub.allowInvalidRequests(to: "products.list", case: "invalid-page")
        let (status, _, data) = try await Self.send(stub.makeSession(), Sent(name: "zero", path: "/api/products?page_no=0&items_per_page=20", says: []))
        #expect(status == 400)
        #expect(String(decoding: data, as: UTF8.self).contains("invalid_page"))
        #expect(stub.requests.map(\.fixture) == ["products.list/invalid-page"])
        #expect(throws: ContractStubError.self) { try stub.allowInvalidRequests(to: "products.list", case: "invalid-pge") }
        try await withKnownIssue {
            let strict = try ContractStub(fixtures: Market.fixtures)
            _ = try await Self.send(strict.makeSession(), Sent(name: "zero", path: "/api/products?page_no=0&items_per_page=20", says: []))
            _ = strict.requests
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(#"stub.allowInvalidRequests(to: "products.list", case: "invalid-page")"#)
        }
    }
}
