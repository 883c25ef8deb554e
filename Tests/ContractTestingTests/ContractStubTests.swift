import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ContractTesting through real URLSession calls, on fixtures generated from the example contracts.
struct ContractStubTests {
    static let fixtures = Market.fixtures

    func get(_ session: URLSession, _ path: String, method: String = "GET", body: Data? = nil) async throws -> (Int, Data) {
        try await Market.send(session, path, method: method, body: body)
    }

    @Test func aRequestGetsItsFixture() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let (status, data) = try await get(stub.makeSession(), "/api/products/1")
        #expect(status == 200)
        let product = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(product?["name"] as? String == "Pencil")
        #expect(stub.requests.map(\.fixture) == ["products.get/found"])
    }

    /// A request can pick its own answer, as with the mock server: `Prefer: case=missing`.
    @Test func aRequestPrefersACase() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        var request = URLRequest(url: URL(string: Market.base + "/api/products/1")!)
        request.setValue("case=missing", forHTTPHeaderField: "Prefer")
        let (data, response) = try await stub.makeSession().data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
        #expect(String(decoding: data, as: UTF8.self).contains("not_found"))
        #expect(stub.requests.map(\.fixture) == ["products.get/missing"])
    }

    /// A request that asks for a refusal by name sends its bad request on purpose: the case's own
    /// answer, no failure, and the violations still recorded. Asking for a success case does not
    /// relax anything (below, the strict tests).
    @Test func aRequestThatPrefersANegativeCaseGetsItThoughItBreaksTheContract() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        var request = URLRequest(url: URL(string: Market.base + "/api/products?page_no=0&items_per_page=20")!)
        request.setValue("case=invalid-page", forHTTPHeaderField: "Prefer")
        let (data, response) = try await stub.makeSession().data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 400)
        #expect(String(decoding: data, as: UTF8.self).contains("invalid_page"), "the fixture's body, not a problem")
        #expect(stub.invalidRequests.first?.violations.map(\.keyword) == ["minimum"])
    }

    @Test func aRequestThatPrefersASuccessCaseIsStillHeldToItsContract() async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Self.fixtures)
            var request = URLRequest(url: URL(string: Market.base + "/api/products?page_no=0&items_per_page=20")!)
            request.setValue("case=first-page", forHTTPHeaderField: "Prefer")
            let (data, response) = try await stub.makeSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            #expect(String(decoding: data, as: UTF8.self).contains("problem"), "a problem, not the page")
        } matching: { $0.description.contains("breaks its contract") }
    }

    @Test func aTestChoosesANamedCase() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        try stub.use("products.get", case: "missing")
        let (status, data) = try await get(stub.makeSession(), "/api/products/1")
        #expect(status == 404)
        #expect(String(decoding: data, as: UTF8.self).contains("not_found"))
    }

    @Test(arguments: [
        ("GET", "/api/orders/1", "path segment 2 is 'orders', the template has 'products'"),
        ("PUT", "/api/products/1", "the method is PUT, the fixture's is "),
        ("GET", "/api/products/1/reviews", "the path has 4 segments, the template 3"),
    ])
    func anUnmatchedRequestFailsTheTestNamingTheNearestFixtureAndWhy(_ method: String, _ path: String, _ reason: String) async throws {
        try await withKnownIssue {
            let stub = try ContractStub(fixtures: Self.fixtures)
            do {
                _ = try await get(stub.makeSession(), path, method: method)
                Issue.record("expected the load to fail")
            } catch {
                #expect("\(error.localizedDescription)".contains(reason), "\(error.localizedDescription)")
                #expect("\(error.localizedDescription)".contains("nearest is"))
            }
            #expect(stub.requests.first?.fixture == nil)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("matches no fixture; nearest is") && text.contains(reason) && text.contains("stub.allowInvalidRequests()")
        }
    }

    /// The URLError of an unmatched request carries the whole explanation and, underneath, the
    /// structured reason; the stub keeps it for the test to ask about.
    @Test func anUnmatchedRequestCarriesItsReasonAndIsKept() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        stub.allowInvalidRequests()
        let session = stub.makeSession()
        #expect(try await get(session, "/health").0 == 200)
        let error = await #expect(throws: URLError.self) { try await get(session, "/api/orders/1") }
        let description = try #require(error?.userInfo[NSLocalizedDescriptionKey] as? String)
        let underlying = try #require(error?.userInfo[NSUnderlyingErrorKey] as? ContractStubError)
        #expect(underlying.code == .noMatchingFixture)
        #expect(underlying.method == "GET")
        #expect(underlying.url?.path == "/api/orders/1")
        let nearest = try #require(underlying.nearestFixture)
        #expect(underlying.contract.map { nearest.hasPrefix($0 + "/") } == true)
        #expect(description.hasPrefix("GET \(Market.base)/api/orders/1 matches no fixture; nearest is \(nearest) ("), "\(description)")
        #expect(description.hasSuffix("path segment 2 is 'orders', the template has 'products'"), "\(description)")
        #expect(underlying.description == description)

        #expect(stub.requests.count == 2)
        let unmatched = stub.unmatchedRequests
        #expect(unmatched.map(\.url.path) == ["/api/orders/1"])
        #expect(unmatched.first?.fixture == nil)
        #expect(unmatched.first?.mismatch?.description == description)
        #expect(stub.requests.first?.mismatch == nil)
    }

    /// Faults are values: built and read without a `switch`, compared with `==`.
    @Test func faultsAreComparableValues() {
        let faults: [ContractStub.Fault] = [.status(503), .error(.timedOut), .delay(.milliseconds(20)), .undecodableBody]
        #expect(faults.map(\.statusCode) == [503, nil, nil, nil])
        #expect(faults.map(\.errorCode) == [nil, .timedOut, nil, nil])
        #expect(faults.map(\.duration) == [nil, nil, .milliseconds(20), nil])
        #expect(faults[0] == .status(503) && faults[0] != .status(500) && faults[3] == .undecodableBody)
        #expect(faults.map(\.description) == ["status(503)", "error(-1001)", "delay(0.02 seconds)", "undecodableBody"])
    }

    @Test func faults() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let session = stub.makeSession()
        stub.inject(.error(.notConnectedToInternet))
        let error = await #expect(throws: URLError.self) { try await get(session, "/api/products/1") }
        #expect(error?.code == .notConnectedToInternet)
        stub.removeFaults()
        try stub.inject(.status(503), for: "products.get")
        #expect(try await get(session, "/api/products/1").0 == 503)
        #expect(try await get(session, "/health").0 == 200, "a fault for one contract leaves the others alone")
        stub.removeFaults()
        stub.inject(.undecodableBody)
        let (_, data) = try await get(session, "/api/products/1")
        #expect((try? JSONSerialization.jsonObject(with: data)) == nil)
        stub.removeFaults()
        stub.inject(.delay(.milliseconds(150)))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await get(session, "/health").0 == 200)
        #expect(clock.now - start >= .milliseconds(150))
    }

    @Test func receivedRequestsAreRecorded() async throws {
        let stub = try ContractStub(fixtures: Self.fixtures)
        let body = Data(#"{"name":"Eraser","price":0.8,"currency":"KRW"}"#.utf8)
        let (status, _) = try await get(stub.makeSession(), "/api/products", method: "POST", body: body)
        #expect(status == 201)
        let request = try #require(stub.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.path == "/api/products")
        #expect(request.headers["Authorization"] == "Bearer test")
        #expect(request.body == body)
        #expect(request.fixture == "products.create/created")
    }

    @Test func parallelTestsNeverSeeEachOthersChoices() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    let stub = try ContractStub(fixtures: Self.fixtures)
                    let wanted = index.isMultiple(of: 2) ? "found" : "missing"
                    try stub.use("products.get", case: wanted)
                    let session = stub.makeSession()
                    for _ in 0..<10 {
                        let (status, _) = try await get(session, "/api/products/1")
                        #expect(status == (wanted == "found" ? 200 : 404))
                    }
                    #expect(stub.requests.count == 10)
                }
            }
            try await group.waitForAll()
        }
    }
}
