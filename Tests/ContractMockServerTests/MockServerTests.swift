import ContractHTTP
import ContractJSON
import ContractMockServer
import ContractRequests
import Foundation
import Testing


#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mock server over real HTTP on loopback: what it answers, and why, for each kind of request.
struct MockServerTests {
    typealias Harness = MockServerHarness

    @Test func aFixtureIsAnsweredAsContractFixturesWroteIt() async throws {
        let harness = try Harness()
        let response = try await harness.response("GET", "/api/products/1", headers: [("Accept", "application/json")])
        #expect(response.status == 200)
        #expect(response.body == (try Harness.fixtureBody("products.get", "found")))
        #expect(response.headers.value(of: "Content-Type") == "application/json")
        #expect(response.headers.value(of: "Contract-Case") == "products.get/found")
        let received = try #require(harness.server.requests.last)
        #expect(received.fixture == "products.get/found" && received.status == 200 && received.violations.isEmpty)
    }

    @Test func aRequestPicksItsCaseWithPrefer() async throws {
        let harness = try Harness()
        for prefer in ["case=missing", "code=404", "example=\"missing\"", "respond-async, case=missing; lenient"] {
            let response = try await harness.response("GET", "/api/products/7", headers: [("Prefer", prefer)])
            #expect(response.status == 404, "\(prefer)")
            #expect(response.headers.value(of: "Contract-Case") == "products.get/missing", "\(prefer)")
            #expect(response.body == (try Harness.fixtureBody("products.get", "missing")))
        }
        let unknown = try await harness.response("GET", "/api/products/7", headers: [("Prefer", "case=gone")])
        #expect(unknown.status == 404)
        let detail = try #require(try Harness.object(unknown)["detail"]?.stringValue)
        #expect(detail.contains("case 'gone'") && detail.contains("found (200)") && detail.contains("missing (404)"), "\(detail)")
    }

    @Test func aBodyThatBreaksItsContractGetsAProblemNamingEachPointer() async throws {
        let harness = try Harness()
        let response = try await harness.response(
            "POST", "/api/products", headers: [Harness.token, Harness.json], body: #"{"nme": "Eraser", "price": "0.8", "currency": "KRW"}"#)
        #expect(response.status == 400)
        #expect(response.headers.value(of: "Content-Type") == "application/problem+json")
        let problem = try Harness.object(response)
        #expect(problem["type"]?.stringValue == RequestProblem.invalidRequestType)
        #expect(problem["contract"]?.stringValue == "products.create" && problem["case"]?.stringValue == "created")
        let violations = try #require(problem["violations"]?.arrayValue).compactMap(\.objectValue)
        let places = Set(violations.map { "\($0["pointer"]?.stringValue ?? "?") \($0["keyword"]?.stringValue ?? "?")" })
        #expect(places == ["/nme additionalProperties", "/price type", " required"], "\(places)")
        let price = try #require(violations.first { $0["pointer"]?.stringValue == "/price" })
        #expect(price["message"]?.stringValue?.contains("expected number") == true, "\(price)")
        #expect(price["schema"]?.stringValue == "schemas/product.json#/$defs/Price/type")
        // The journal keeps the request with its violations.
        let received = try #require(harness.server.invalidRequests.last)
        #expect(received.status == 400 && received.fixture == "products.create/created" && received.violations.count == violations.count)
        #expect(received.answeredAnyway == false)
    }

    @Test func aRequestThatKeepsItsContractIsAnswered() async throws {
        let harness = try Harness()
        let response = try await harness.response(
            "POST", "/api/products", headers: [Harness.token, Harness.json], body: #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#)
        #expect(response.status == 201)
        #expect(response.body == (try Harness.fixtureBody("products.create", "created")))
        #expect(harness.server.invalidRequests.isEmpty)
    }

    @Test func aParameterOfTheWrongTypeIsAViolation() async throws {
        let harness = try Harness()
        let response = try await harness.response("GET", "/api/products?page_no=first&items_per_page=20")
        #expect(response.status == 400)
        let violation = try #require(try Harness.object(response)["violations"]?.arrayValue?.first?.objectValue)
        #expect(violation["in"]?.stringValue == "query" && violation["name"]?.stringValue == "page_no" && violation["keyword"]?.stringValue == "type")
    }

    @Test func aNegativeCaseAskedForByNameAnswersItsOwnBadRequest() async throws {
        let harness = try Harness()
        let response = try await harness.response("GET", "/api/products?page_no=0&items_per_page=20", headers: [("Prefer", "case=invalid-page")])
        #expect(response.status == 400)
        #expect(response.body == (try Harness.fixtureBody("products.list", "invalid-page")), "the case's own answer, not a problem")
        let received = try #require(harness.server.requests.last)
        #expect(received.answeredAnyway && !received.violations.isEmpty, "still journaled as breaking its contract")
    }

    @Test func anUnknownPathGetsAProblemNamingTheNearestRoute() async throws {
        let harness = try Harness()
        let response = try await harness.response("GET", "/api/prodcts/1?token=hidden")
        #expect(response.status == 404)
        let problem = try Harness.object(response)
        #expect(problem["type"]?.stringValue == RequestProblem.unmatchedRequestType)
        #expect(problem["nearest"]?.stringValue == "products.get/found")
        #expect(problem["nearestRoute"]?.stringValue == "GET /api/products/{id}")
        let detail = try #require(problem["detail"]?.stringValue)
        #expect(detail.contains("path segment 2 is 'prodcts'"), "\(detail)")
        #expect(!detail.contains("hidden"), "the query is never shown: it may hold a secret")
        #expect(harness.server.unmatchedRequests.count == 1)
    }

    @Test func lenientAnswersABadRequestAndSaysSo() async throws {
        var options = MockServer.Options()
        options.lenient = true
        let harness = try Harness(options: options)
        let response = try await harness.response("POST", "/api/products", headers: [Harness.json], body: #"{"nme": "Eraser"}"#)
        #expect(response.status == 201)
        #expect(response.headers.value(of: "Contract-Violations").flatMap(Int.init) ?? 0 >= 2)
        let received = try #require(harness.server.requests.last)
        #expect(received.answeredAnyway && !received.violations.isEmpty)
    }

    @Test func allowingOneContractRelaxesOnlyIt() async throws {
        let harness = try Harness()
        try harness.server.allowInvalidRequests(to: "products.create")
        #expect(try await harness.response("POST", "/api/products", headers: [Harness.json], body: "{}").status == 201)
        #expect(try await harness.response("GET", "/api/products?page_no=x").status == 400)
        #expect(throws: MockServerError.self) { try harness.server.allowInvalidRequests(to: "products.crate") }
    }

    @Test func aChosenCaseAnswersUntilReset() async throws {
        let harness = try Harness()
        try harness.server.use("products.get", case: "missing")
        #expect(try await harness.response("GET", "/api/products/1").status == 404)
        #expect(harness.server.chosenCasesNotRequested.isEmpty)
        harness.server.reset()
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
        #expect(harness.server.requests.count == 1, "the journal starts again")
        let error = #expect(throws: MockServerError.self) { try harness.server.use("products.get", case: "mising") }
        #expect(error?.code == .unknownCase && error?.description.contains("did you mean 'missing'") == true)
    }

    @Test func faultsApplyToTheAnswersTheyAreFor() async throws {
        let harness = try Harness()
        try harness.server.inject(.status(503), for: "products.get", times: 1)
        #expect(try await harness.response("GET", "/api/products/1").status == 503)
        #expect(try await harness.response("GET", "/api/products/1").status == 200, "counted down to nothing")
        try harness.server.inject(.undecodableBody, for: "health.get")
        #expect(try await harness.response("GET", "/api/products/1").status == 200, "another contract's answers are untouched")
        let health = try await harness.response("GET", "/health")
        #expect((try? JSONParser().parse(health.body)) == nil, "not JSON")
        harness.server.removeFaults()
        // Every answer: a client sends again on a fresh connection when a reused one drops
        // (libcurl and URLSession both do), and that one must drop too.
        try harness.server.inject(.dropConnection)
        let before = harness.server.requests.count
        let dropped = await harness.send("GET", "/api/products/1")
        #expect(dropped.failure?.isTransient == true, "the connection ends without an answer: \(String(describing: dropped.failure))")
        let attempts = harness.server.requests.dropFirst(before)
        #expect(!attempts.isEmpty && attempts.allSatisfy { $0.status == nil && $0.faults == ["dropConnection"] })
        harness.server.removeFaults()
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
        #expect(throws: MockServerError.self) { try harness.server.inject(.status(99)) }
        #expect(throws: MockServerError.self) { try harness.server.inject(.delay(.seconds(3601))) }
    }

    /// A fault is for the fixture's answers: a problem answering a bad request does not use it up.
    @Test func aProblemTakesNoFault() async throws {
        let harness = try Harness()
        try harness.server.inject(.status(503), for: "products.create", times: 1)
        #expect(try await harness.response("POST", "/api/products", headers: [Harness.token, Harness.json], body: "{}").status == 400)
        let good = #"{"name": "Eraser", "price": 0.8, "currency": "KRW"}"#
        #expect(try await harness.response("POST", "/api/products", headers: [Harness.token, Harness.json], body: good).status == 503)
        #expect(harness.server.requests.map(\.faults) == [[], ["status(503)"]])
    }

    /// A 204 has no body and no Content-Length (RFC 9110 §8.6).
    @Test func aNoContentAnswerHasNoLength() async throws {
        let harness = try Harness()
        let deleted = try await harness.response("DELETE", "/api/products/1", headers: [Harness.token])
        #expect(deleted.status == 204 && deleted.body.isEmpty)
        #expect(deleted.headers.value(of: "Content-Length") == nil)
        try harness.server.inject(.undecodableBody, for: "products.delete")
        #expect(try await harness.response("DELETE", "/api/products/1", headers: [Harness.token]).body.isEmpty, "a 204 stays empty")
    }

    @Test func aDelayedAnswerComesAfterTheDelay() async throws {
        let harness = try Harness()
        try harness.server.inject(.delay(.milliseconds(300)), times: 1)
        let clock = ContinuousClock()
        let start = clock.now
        // A lower bound only: a busy machine makes the answer later, never earlier.
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
        #expect(clock.now - start >= .milliseconds(300))
        #expect(harness.server.requests.last?.faults == ["delay(0.3 seconds)"])
    }

    @Test func theControlAPIMakesTheSameCalls() async throws {
        let harness = try Harness()
        let use = try await harness.response("POST", "/__contract/use", body: #"{"contract": "products.get", "case": "missing"}"#)
        #expect(use.status == 204)
        #expect(try await harness.response("GET", "/api/products/1").status == 404)
        let inject = try await harness.response("POST", "/__contract/inject", body: #"{"contract": "products.get", "status": 500, "times": 1}"#)
        #expect(inject.status == 204)
        #expect(try await harness.response("GET", "/api/products/1").status == 500)
        let overview = try Harness.object(try await harness.response("GET", "/__contract"))
        let contracts = try #require(overview["contracts"]?.arrayValue).compactMap(\.objectValue)
        #expect(contracts.first { $0["contract"]?.stringValue == "products.get" }?["chosen"]?.stringValue == "missing")
        let journal = try Harness.object(try await harness.response("GET", "/__contract/requests"))
        let entries = try #require(journal["requests"]?.arrayValue).compactMap(\.objectValue)
        #expect(entries.map { $0["status"]?.numberValue?.intValue } == [404, 500])
        #expect(entries.allSatisfy { $0["path"]?.stringValue == "/api/products/1" }, "control calls are not journaled")
        #expect(try await harness.response("POST", "/__contract/reset").status == 204)
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
    }

    @Test func aWrongControlCallIsRefusedWithTheReason() async throws {
        let harness = try Harness()
        let unknown = try await harness.response("POST", "/__contract/use", body: #"{"contract": "products.gt", "case": "x"}"#)
        #expect(unknown.status == 404)
        #expect(try Harness.object(unknown)["detail"]?.stringValue?.contains("did you mean 'products.get'") == true)
        let notJSON = try await harness.response("POST", "/__contract/inject", body: "{status: 503")
        #expect(notJSON.status == 400)
        #expect(try Harness.object(notJSON)["detail"]?.stringValue?.contains("not JSON") == true)
        let twoFaults = try await harness.response("POST", "/__contract/inject", body: #"{"status": 503, "dropConnection": true}"#)
        #expect(twoFaults.status == 400)
        let hourLong = try await harness.response("POST", "/__contract/inject", body: #"{"delay": 1e9}"#)
        #expect(hourLong.status == 400)
        let nowhere = try await harness.response("GET", "/__contract/nowhere")
        #expect(nowhere.status == 404)
        #expect(try Harness.object(nowhere)["detail"]?.stringValue?.contains("POST /__contract/use") == true)
        #expect(harness.server.requests.isEmpty)
    }

    @Test func theJournalLeavesSecretsOut() async throws {
        let harness = try Harness()
        _ = try await harness.response("GET", "/api/products/1?api_key=s3cr3t-query", headers: [("Authorization", "Bearer s3cr3t-header")])
        let journal = try await harness.response("GET", "/__contract/requests")
        let text = String(decoding: journal.body, as: UTF8.self)
        #expect(!text.contains("s3cr3t"), "\(text)")
        #expect(text.contains("Authorization") && text.contains("api_key"))
        // The Swift API, in the test's own process, keeps what was sent.
        #expect(harness.server.requests.last?.headers.contains { $0.value == "Bearer s3cr3t-header" } == true)
    }

    @Test func theJournalKeepsTheNewestAndCountsTheRest() async throws {
        var options = MockServer.Options()
        options.journalLimit = 3
        let harness = try Harness(options: options)
        for id in 1...5 { _ = try await harness.response("GET", "/api/products/\(id)") }
        #expect(harness.server.requests.map(\.sequence) == [3, 4, 5])
        let journal = try Harness.object(try await harness.response("GET", "/__contract/requests"))
        #expect(journal["dropped"]?.numberValue?.intValue == 2)
    }

    /// Clients that send big headers fill the journal sooner, not bigger: its bytes are bounded.
    @Test func theJournalsBytesAreBoundedToo() async throws {
        var options = MockServer.Options()
        options.journalByteLimit = 64 << 10
        let harness = try Harness(options: options)
        let big = String(repeating: "x", count: 20_000)
        for _ in 1...10 { _ = try await harness.response("GET", "/api/products/1", headers: [("X-Big", big)]) }
        let kept = harness.server.requests
        #expect(kept.count == 3, "three of 20 KB fit in 64 KiB: \(kept.count)")
        #expect(kept.map(\.sequence) == [8, 9, 10])
        let journal = try Harness.object(try await harness.response("GET", "/__contract/requests"))
        #expect(journal["dropped"]?.numberValue?.intValue == 7)
    }

    @Test func anIdleTimeoutOfForeverIsALongOne() async throws {
        var options = MockServer.Options()
        options.idleTimeout = .seconds(Int64.max)
        let harness = try Harness(options: options)
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
    }

    @Test func aBodyOverTheLimitGetsA413AndTheConnectionCloses() async throws {
        var options = MockServer.Options()
        options.maxBodyBytes = 1024
        let harness = try Harness(options: options)
        let big = "{\"name\": \"" + String(repeating: "x", count: 4096) + "\"}"
        let response = await harness.send("POST", "/api/products", headers: [Harness.token, Harness.json], body: big)
        // The answer comes before the body is read; a client still sending may see the close first.
        if case .success(let answer) = response {
            #expect(answer.status == 413)
            #expect(try Harness.object(answer)["detail"]?.stringValue?.contains("limit of 1024") == true)
        }
        let received = try #require(harness.server.requests.last)
        #expect(received.status == 413 && received.bodyByteCount >= 1024)
        // A control call refused is not journaled: no control call is.
        let journaled = harness.server.requests.count
        _ = await harness.send("POST", "/__contract/use", headers: [Harness.json], body: big)
        #expect(harness.server.requests.count == journaled)
        #expect(try await harness.response("GET", "/api/products/1").status == 200, "the server goes on")
    }

    @Test func corsLetsABrowserPageCallIt() async throws {
        var options = MockServer.Options()
        options.cors = true
        let harness = try Harness(options: options)
        let preflight = try await harness.response(
            "OPTIONS", "/api/products",
            headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization, content-type")])
        #expect(preflight.status == 204)
        #expect(preflight.headers.value(of: "Access-Control-Allow-Origin") == "http://localhost:3000")
        #expect(preflight.headers.value(of: "Access-Control-Allow-Methods") == "POST")
        #expect(preflight.headers.value(of: "Access-Control-Allow-Headers") == "authorization, content-type")
        #expect(preflight.headers.value(of: "Access-Control-Allow-Credentials") == "true")
        let answer = try await harness.response("GET", "/api/products/1", headers: [("Origin", "http://localhost:3000")])
        #expect(answer.headers.value(of: "Access-Control-Allow-Origin") == "http://localhost:3000")
        #expect(answer.headers.value(of: "Access-Control-Expose-Headers")?.contains("Contract-Case") == true)
        #expect(harness.server.requests.count == 1, "a preflight is not a request to a contract")
        // Without --cors, no CORS header.
        let plain = try Harness()
        #expect(try await plain.response("GET", "/api/products/1", headers: [("Origin", "http://x")]).headers.value(of: "Access-Control-Allow-Origin") == nil)
    }

    @Test func aReplacedSetKeepsWhatTheTestChose() async throws {
        let harness = try Harness()
        try harness.server.use("products.get", case: "missing")
        var fixtures = harness.server.fixtures
        let index = try #require(fixtures.firstIndex { $0.name == "products.get/missing" })
        fixtures[index].body = Array(#"{"error": {"code": "gone", "message": "replaced"}}"#.utf8)
        harness.server.replace(fixtures: fixtures)
        let response = try await harness.response("GET", "/api/products/1")
        #expect(response.status == 404 && String(decoding: response.body, as: UTF8.self).contains("replaced"))
    }

    @Test func aStoppedServerClosesItsConnectionsAndStartsAgain() async throws {
        let harness = try Harness()
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
        let port = try #require(harness.server.port)
        harness.server.stop()
        #expect(harness.server.baseURL == nil)
        #expect(await harness.send("GET", "/api/products/1").failure != nil)
        try harness.server.start()
        #expect(harness.server.port != nil)
        _ = port
    }

    @Test func aTakenPortIsAnErrorNamingIt() throws {
        let harness = try Harness()
        var options = MockServer.Options()
        options.port = try #require(harness.server.port)
        let second = try MockServer(fixturesIn: Harness.fixturesFolder, options: options)
        let error = #expect(throws: MockServerError.self) { try second.start() }
        #expect(error?.code == .cannotListen && error?.description.contains("\(options.port)") == true)
    }

    @Test func aFolderWithoutFixturesOrWithAnOldOneIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: MockServerError.self) { try MockServer(fixturesIn: folder.path) }
        let old = folder.appendingPathComponent("products.get/found.json")
        try FileManager.default.createDirectory(at: old.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"contract": "products.get", "case": "found", "request": {}, "response": {"status": 200}}"#.utf8).write(to: old)
        let error = #expect(throws: MockServerError.self) { try MockServer(fixturesIn: folder.path) }
        #expect(error?.description.contains("run 'contract fixtures --out") == true, "\(String(describing: error))")
    }
}

/// Bytes that are not HTTP, or a header past NIO's bound: a 400, then the connection closes
/// (read to its end here; the receive timeout only guards against a hang).
struct MockServerRawTests {
    @Test(arguments: ["GARBAGE\r\n\r\n", "GET /api/products/1 HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 200_000) + "\r\n\r\n"])
    func whatIsNotHTTPGetsA400AndTheConnectionCloses(_ text: String) throws {
        let harness = try MockServerHarness()
        let answer = try RawConnection.exchange(port: try #require(harness.server.port), Array(text.utf8))
        #expect(String(decoding: answer.prefix(12), as: UTF8.self) == "HTTP/1.1 400")
        #expect(harness.server.requests.isEmpty, "nothing reached the fixtures")
    }
}

/// Answers that have no body (204, 205, 304) send none, whatever the fixture holds (`contract
/// fixtures` may synthesize `{}` from a schema) or a fault makes them: bytes after such a head
/// would be read as the next answer on a kept-alive connection.
struct MockServerNoBodyTests {
    static func server(status: Int) throws -> MockServer {
        let fixture = FixtureFile(
            contract: "items.delete", caseName: "deleted", method: "DELETE", pathTemplate: "/items/{id}", status: status,
            headers: [WireRequest.Field(name: "Content-Type", value: "application/json")], body: Array("{}".utf8),
            endpoint: RequestDescription(method: "DELETE", pathTemplate: "/items/{id}"))
        let server = MockServer(fixtures: [fixture])
        try server.start()
        return server
    }

    static let twoDeletes = Array("DELETE /items/1 HTTP/1.1\r\nHost: x\r\n\r\nDELETE /items/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)

    @Test(arguments: [204, 205, 304])
    func aFixtureBodyIsNotSentWithAnAnswerThatHasNone(_ status: Int) throws {
        let server = try Self.server(status: status)
        let text = String(decoding: try RawConnection.exchange(port: try #require(server.port), Self.twoDeletes), as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 \(status)").count == 3, "two answers: \(text)")
        #expect(!text.contains("{}"), "\(text)")
        #expect(text.contains("Content-Length: 0") == (status == 205), "\(text)")
    }

    @Test func aStatusFaultToNoContentSendsNoBody() async throws {
        let server = try Self.server(status: 200)
        try server.inject(.status(204))
        let text = String(decoding: try RawConnection.exchange(port: try #require(server.port), Self.twoDeletes), as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 204").count == 3 && !text.contains("{}") && !text.contains("Content-Length"), "\(text)")
    }
}
