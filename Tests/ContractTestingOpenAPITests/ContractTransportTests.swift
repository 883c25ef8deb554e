import ContractTesting
import ContractTestingOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ContractTransport through real `send` calls, with OpenAPIRuntime's types, on fixtures written
/// in the layout `contract fixtures` writes (`<contract>/<case>.json`) for a small pet store whose
/// contracts are named by operation, as `contract import openapi` names them.
struct ContractTransportTests {
    static let fixtures: FixtureSet = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-transport-fixtures-\(UUID().uuidString)")
        let json = "application/json"
        let files: [String: [String: Any]] = [
            "getPet/found": fixture("getPet", "found", "GET", "/pets/{petId}", path: "/pets/1", status: 200,
                headers: ["Content-Type": json, "X-Request-Id": "abc"], body: ["id": 1, "name": "Rex"]),
            "getPet/not-found": fixture("getPet", "not-found", "GET", "/pets/{petId}", path: "/pets/1", status: 404,
                headers: ["Content-Type": json], body: ["message": "no such pet"]),
            "listPets/ok": fixture("listPets", "ok", "GET", "/pets", path: "/pets", query: ["limit": "2"], status: 200,
                headers: ["Content-Type": json], body: [["id": 1, "name": "Rex"], ["id": 2, "name": "Tom"]]),
            "createPet/created": fixture("createPet", "created", "POST", "/pets", path: "/pets", status: 201,
                headers: ["Content-Type": json, "Location": "/pets/3"], body: ["id": 3, "name": "Kit"]),
        ]
        for (name, content) in files {
            let url = folder.appendingPathComponent(name + ".json")
            try! FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try! JSONSerialization.data(withJSONObject: content, options: [.prettyPrinted, .sortedKeys]).write(to: url)
        }
        return try! FixtureSet(directory: folder)
    }()

    static func fixture(
        _ contract: String, _ caseName: String, _ method: String, _ template: String, path: String, query: [String: String] = [:],
        status: Int, headers: [String: String], body: Any
    ) -> [String: Any] {
        [
            "format": "contract-fixture", "version": 2,
            "contract": contract, "case": caseName, "source": "\(contract).json",
            "endpoint": ["method": method, "pathTemplate": template],
            "request": [
                "method": method, "path": path, "pathTemplate": template,
                "query": query.map { ["name": $0.key, "value": $0.value] },
            ] as [String: Any],
            "response": [
                "status": status, "headers": headers.map { ["name": $0.key, "value": $0.value] }, "body": body,
            ] as [String: Any],
        ]
    }

    static let base = URL(string: "https://example.com")!
    static let prefixed = URL(string: "https://example.com/v1")!

    static func get(_ path: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: nil, path: path)
    }

    /// `stub.use`, whether or not it throws.
    static func choose(_ stub: ContractStub, _ contract: String, _ caseName: String) throws {
        let use: (String, String) throws -> Void = stub.use(_:case:)
        try use(contract, caseName)
    }

    static func text(_ body: HTTPBody?) async throws -> String {
        guard let body else { return "" }
        return try await String(collecting: body, upTo: 1 << 20)
    }

    static func json(_ body: HTTPBody?) async throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try await text(body).utf8), options: .fragmentsAllowed)
    }

    @Test func theOperationPicksItsContractUnderABasePath() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        let (response, body) = try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.prefixed, operationID: "getPet")
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(response.headerFields[HTTPField.Name("X-Request-Id")!] == "abc")
        let pet = try await Self.json(body) as? [String: Any]
        #expect(pet?["name"] as? String == "Rex")
        #expect(stub.requests.map(\.fixture) == ["getPet/found"])
        #expect(stub.requests.map(\.url.absoluteString) == ["https://example.com/v1/pets/1"])
        #expect(stub.requests.map(\.method) == ["GET"])
    }

    /// The import makes ids of operationIds (`get_pet` or `pets/get` are not valid as written):
    /// the name still finds its contract, even where the base URL's path keeps the path from matching.
    @Test func anOperationIDSpelledOtherwiseStillFindsItsContract() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let (response, _) = try await ContractTransport(stub: stub).send(
            Self.get("/v2/pets/1"), body: nil, baseURL: Self.prefixed, operationID: "get_pet")
        #expect(response.status == .ok)
        #expect(stub.requests.map(\.fixture) == ["getPet/found"])
    }

    @Test func aBaseURLsTrailingSlashAndARequestQueryMakeOneURL() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        let (response, body) = try await transport.send(
            Self.get("/pets?limit=2"), body: nil, baseURL: URL(string: "https://example.com/v1/")!, operationID: "listPets")
        #expect(response.status == .ok)
        #expect((try await Self.json(body) as? [Any])?.count == 2)
        #expect(stub.requests.map(\.url.absoluteString) == ["https://example.com/v1/pets?limit=2"])
        #expect(stub.requests.map(\.fixture) == ["listPets/ok"])
    }

    @Test func anOperationNamingNoContractIsMatchedByMethodAndPath() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        let (pet, _) = try await transport.send(Self.get("/pets/7"), body: nil, baseURL: Self.base, operationID: "fetchAPet")
        #expect(pet.status == .ok)
        let (list, _) = try await transport.send(Self.get("/pets?limit=2"), body: nil, baseURL: Self.base, operationID: "pets/list")
        #expect(list.status == .ok)
        #expect(stub.requests.map(\.fixture) == ["getPet/found", "listPets/ok"])
    }

    @Test func aChosenCaseAnswers() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        try Self.choose(stub, "getPet", "not-found")
        let (response, body) = try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.prefixed, operationID: "getPet")
        #expect(response.status == .notFound)
        #expect(try await Self.text(body).contains("no such pet"))
        #expect(stub.requests.map(\.fixture) == ["getPet/not-found"])
    }

    @Test func injectedStatusAndErrorFaults() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        try stub.inject(.status(503), for: "getPet")
        let (faulted, body) = try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
        #expect(faulted.status.code == 503)
        #expect(try await Self.text(body).contains("Rex"))
        // A fault for one contract leaves the others alone.
        let (other, _) = try await transport.send(Self.get("/pets?limit=2"), body: nil, baseURL: Self.base, operationID: "listPets")
        #expect(other.status == .ok)

        stub.removeFaults()
        stub.inject(.error(.notConnectedToInternet))
        do {
            _ = try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
            Issue.record("expected the send to fail")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
        #expect(stub.requests.count == 3)
    }

    @Test func anUndecodableBodyFault() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        try stub.inject(.undecodableBody, for: "getPet")
        let (response, body) = try await ContractTransport(stub: stub).send(
            Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
        #expect(response.status == .ok)
        let text = try await Self.text(body)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) == nil, "\(text)")
    }

    @Test func aDelayFaultHoldsTheResponseBack() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        stub.inject(.delay(.milliseconds(200)))
        let clock = ContinuousClock()
        let start = clock.now
        let (response, _) = try await ContractTransport(stub: stub).send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
        #expect(clock.now - start >= .milliseconds(200))
        #expect(response.status == .ok)
    }

    @Test func cancellingDuringADelayEndsTheCall() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        // No clock is read: a call the delay ended would return the answer, and only the
        // cancellation makes it throw. The delay is a day, so a broken cancellation fails the
        // test by the wait guard below long before, rather than passing late.
        stub.inject(.delay(.seconds(86_400)))
        let transport = ContractTransport(stub: stub)
        let call = Task { try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet") }
        // Answered (and recorded) first, then waiting out the delay. The bound only guards
        // against a hang: the cooperative pool may be held by CPU-bound suites for minutes.
        let clock = ContinuousClock()
        let guardEnd = clock.now + .seconds(900)
        while stub.requests.isEmpty, clock.now < guardEnd { try await Task.sleep(for: .milliseconds(5)) }
        #expect(stub.requests.count == 1)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test func aCancelledCallIsNeitherAnsweredNorRecorded() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
        }
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(stub.requests.isEmpty)
    }

    @Test func theStubRecordsTheRequestWithItsHeadersAndBody() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub)
        var request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/pets")
        request.headerFields[.contentType] = "application/json"
        request.headerFields.append(HTTPField(name: .accept, value: "application/json"))
        request.headerFields.append(HTTPField(name: .accept, value: "text/plain"))
        let sent = #"{"name":"Kit"}"#
        // Streamed, of unknown length, as a client may send it.
        let (stream, continuation) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
        continuation.yield(ArraySlice(#"{"name""#.utf8))
        continuation.yield(ArraySlice(#":"Kit"}"#.utf8))
        continuation.finish()
        let (response, body) = try await transport.send(request, body: HTTPBody(stream, length: .unknown), baseURL: Self.prefixed, operationID: "createPet")
        #expect(response.status == .created)
        #expect(response.headerFields[.location] == "/pets/3")
        #expect((try await Self.json(body) as? [String: Any])?["id"] as? Int == 3)
        let received = try #require(stub.requests.first)
        #expect(received.method == "POST")
        #expect(received.url.absoluteString == "https://example.com/v1/pets")
        #expect(received.body.map { String(decoding: $0, as: UTF8.self) } == sent)
        #expect(received.headers["Content-Type"] == "application/json")
        #expect(received.headers["Accept"] == "application/json, text/plain")
        #expect(received.fixture == "createPet/created")
    }

    @Test func aBodyOverTheLimitIsRefusedUnread() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let transport = ContractTransport(stub: stub, maximumRequestBodyBytes: 8)
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/pets")
        let expected = ContractTransportError.requestBodyTooLarge(method: "POST", path: "/pets", limit: 8)
        // Known length: refused before reading.
        await #expect(throws: expected) {
            try await transport.send(request, body: HTTPBody("0123456789"), baseURL: Self.base, operationID: "createPet")
        }
        // Unknown length: refused once the bytes read pass the limit, however long the stream.
        let endless = AsyncStream<HTTPBody.ByteChunk> { ArraySlice("01234".utf8) }
        await #expect(throws: expected) {
            try await transport.send(request, body: HTTPBody(endless, length: .unknown), baseURL: Self.base, operationID: "createPet")
        }
        #expect(stub.requests.isEmpty)
        #expect(expected.description.contains("longer than 8 bytes"))
        // At the limit: read.
        let (response, _) = try await transport.send(request, body: HTTPBody("01234567"), baseURL: Self.base, operationID: "createPet")
        #expect(response.status == .created)
        #expect(ContractTransport(stub: stub).maximumRequestBodyBytes == ContractTransport.defaultMaximumRequestBodyBytes)
    }

    @Test func aRequestMatchingNothingNamesTheNearestFixture() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        stub.allowInvalidRequests()
        let transport = ContractTransport(stub: stub)
        do {
            _ = try await transport.send(Self.get("/pets/1/toys"), body: nil, baseURL: Self.base, operationID: "listToys")
            Issue.record("expected the send to fail")
        } catch let error as URLError {
            #expect(error.code == .resourceUnavailable)
            #expect(error.localizedDescription.contains("nearest is getPet/found"), "\(error.localizedDescription)")
            #expect(error.localizedDescription.contains("the path has 3 segments, the template 2"), "\(error.localizedDescription)")
            let underlying = error.userInfo[NSUnderlyingErrorKey] as? ContractStubError
            #expect(underlying?.code == .noMatchingFixture)
            #expect(underlying?.method == "GET" && underlying?.url?.path == "/pets/1/toys")
            #expect(underlying?.nearestFixture == "getPet/found")
        }
        #expect(stub.requests.count == 1)
        #expect(stub.requests.first?.fixture == nil)
        #expect(stub.unmatchedRequests.first?.mismatch?.code == .noMatchingFixture)
    }

    @Test func aStatusHTTPCannotCarryIsAnErrorNotACrash() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        stub.inject(.status(1000))
        let error = await #expect(throws: ContractTransportError.invalidStatus(1000)) {
            try await ContractTransport(stub: stub).send(Self.get("/pets/1"), body: nil, baseURL: Self.base, operationID: "getPet")
        }
        // Told apart by code, without its values; a code added later breaks no switch of users'.
        #expect(error?.code == .invalidStatus && error?.code != .invalidHeaderName)
        #expect(error?.description == "the fixture's status 1000 is not an HTTP status (0...999)")
    }

    @Test func aHeadRequestGetsNoBody() async throws {
        let stub = try ContractStub(fixtures: FixtureSet(fixtures: Self.fixtures.fixtures.map { fixture in
            var head = fixture
            head.method = "HEAD"
            return head
        }))
        let request = HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/pets/1")
        let (response, body) = try await ContractTransport(stub: stub).send(request, body: nil, baseURL: Self.base, operationID: "getPet")
        #expect(response.status == .ok)
        #expect(body == nil)
    }
}
