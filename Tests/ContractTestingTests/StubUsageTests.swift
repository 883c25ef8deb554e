@_spi(Usage) @_spi(Transport) import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A usage file of a test's own, in a temporary folder, read back as `contract coverage` reads it.
/// A test's stubs get its recorder through the SPI init: `UsageRecorder.testing` is the process's,
/// made once from the environment (the child-process tests in `UsageRecordingProcessTests` run it).
final class UsageFolder: @unchecked Sendable {
    let folder: URL
    let recorder: UsageRecorder

    init(recorder name: String = "ContractTesting") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-\(UUID().uuidString)")
        recorder = try UsageRecorder.create(folder: folder.path, recorder: name)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func stub(_ fixtures: FixtureSet = Market.fixtures) throws -> ContractStub {
        try ContractStub(fixtures: fixtures, usage: recorder)
    }

    var bytes: [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: recorder.path)))) ?? []
    }

    /// The records written so far; a file the reader refuses fails the test.
    func records() throws -> [UsageRecord] {
        try UsageLog.read(bytes).get().records
    }
}

/// The stubs record each request they answer for `contract coverage`: which contract and case
/// answered it, or how it broke its contract, or that none matched and which came nearest; the
/// test that sent it; its path, and nothing of its query, headers or body. Real `URLSession`
/// requests on fixtures generated from the example contracts.
struct StubUsageTests {
    static let suite = "ContractTestingTests.StubUsageTests"

    static func request(_ path: String, method: String = "GET", body: String? = nil, prefer: String? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: Market.base + path)))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        request.setValue("Bearer usage-secret-token", forHTTPHeaderField: "Authorization")
        if let prefer { request.setValue(prefer, forHTTPHeaderField: "Prefer") }
        return request
    }

    @Test func anAnsweredRequestIsRecordedWithItsCaseAndTest() async throws {
        let usage = try UsageFolder()
        let stub = try usage.stub()
        _ = try await stub.makeSession().data(for: Self.request("/api/products/1"))
        try stub.use("products.get", case: "missing")
        _ = try await stub.makeSession().data(for: Self.request("/api/products/2"))
        let test = "\(Self.suite)/anAnsweredRequestIsRecordedWithItsCaseAndTest()"
        #expect(try usage.records() == [
            UsageRecord(contract: "products.get", caseName: "found", outcome: .answered, test: test, method: "GET", path: "/api/products/1"),
            UsageRecord(contract: "products.get", caseName: "missing", outcome: .answered, test: test, method: "GET", path: "/api/products/2"),
        ])
        #expect(try UsageLog.read(usage.bytes).get().recorder == "ContractTesting")
    }

    /// A request that breaks its contract fails its test, and is recorded with its violations.
    @Test func anInvalidRequestIsRecordedWithItsViolations() async throws {
        let usage = try UsageFolder()
        try await withKnownIssue {
            let stub = try usage.stub()
            _ = try await stub.makeSession().data(for: Self.request("/api/products", method: "POST", body: #"{"nme": "Eraser", "price": 0.8, "currency": "KRW"}"#))
        } matching: { $0.description.contains("breaks its contract") }
        let record = try #require(try usage.records().first)
        #expect(record.outcome == .invalid && record.caseID == "products.create/created" && !record.relaxed)
        #expect(record.test == "\(Self.suite)/anInvalidRequestIsRecordedWithItsViolations()")
        #expect(record.violations.contains(UsageRecord.Violation(
            place: "body /nme", keyword: "additionalProperties", message: "unexpected property 'nme', did you mean 'name'?")))
        #expect(record.violations.contains { $0.place == "body" && $0.keyword == "required" })
    }

    /// Let through on purpose, by the test or by the request asking for a refusal: relaxed, so
    /// coverage tells a test of the app's error handling from a defect of the app.
    @Test func aRequestLetThroughOnPurposeIsRecordedRelaxed() async throws {
        let usage = try UsageFolder()
        let allowed = try usage.stub()
        try allowed.allowInvalidRequests(to: "products.create")
        _ = try await allowed.makeSession().data(for: Self.request("/api/products", method: "POST", body: #"{"price": 0.8, "currency": "KRW"}"#))
        let asking = try usage.stub()
        _ = try await asking.makeSession().data(for: Self.request("/api/products?page_no=0&items_per_page=20", prefer: "case=invalid-page"))
        let records = try usage.records()
        #expect(records.map(\.outcome) == [.invalid, .invalid])
        #expect(records.map(\.relaxed) == [true, true])
        #expect(records.map(\.caseID) == ["products.create/created", "products.list/invalid-page"])
        #expect(records.last?.violations.map(\.keyword) == ["minimum"])
        #expect(records.last?.path == "/api/products", "the query is never recorded")
    }

    @Test func anUnmatchedRequestIsRecordedWithTheNearestFixtureAndWhy() async throws {
        let usage = try UsageFolder()
        try await withKnownIssue {
            let stub = try usage.stub()
            _ = try? await stub.makeSession().data(for: Self.request("/api/prodcts/1?api_key=usage-secret-key"))
        } matching: { $0.description.contains("matches no fixture") }
        let relaxed = try usage.stub()
        relaxed.allowInvalidRequests()
        _ = try? await relaxed.makeSession().data(for: Self.request("/api/products/1", prefer: "case=usage-secret-case"))
        let records = try usage.records()
        try #require(records.count == 2)
        let test = "\(Self.suite)/anUnmatchedRequestIsRecordedWithTheNearestFixtureAndWhy()"
        #expect(records[0] == UsageRecord(
            contract: "products.get", caseName: nil, outcome: .unmatched, test: test, method: "GET", path: "/api/prodcts/1",
            nearest: "products.get/found", reason: "path segment 2 is 'prodcts', the template has 'products'"))
        // The case a Prefer header asks for is a header's value: said, not quoted.
        #expect(records[1].outcome == .unmatched && records[1].relaxed && records[1].contract == "products.get" && records[1].nearest == nil)
        #expect(records[1].reason?.hasPrefix("its Prefer header asks for a case products.get does not have (its cases: found (200), missing (404)") == true)
        #expect(!String(decoding: usage.bytes, as: UTF8.self).contains("usage-secret"))
    }

    /// What a usage file may end up in (a CI artifact) holds nothing of a request but its method
    /// and path: no query, header or body, where credentials and personal data travel. (A
    /// violation's message quotes the value that breaks the contract, as the test's failure
    /// does, credentials masked: the checker's tests hold that.)
    @Test func nothingOfTheQueryHeadersOrBodyIsRecorded() async throws {
        let usage = try UsageFolder()
        let stub = try usage.stub()
        _ = try await stub.makeSession().data(for: Self.request("/api/products/1?usage-secret-item=usage-secret-value&api_key=usage-secret-key"))
        _ = try await stub.makeSession().data(for: Self.request(
            "/api/products", method: "POST", body: #"{"name": "usage-secret-name", "price": 0.8, "currency": "KRW"}"#))
        let records = try usage.records()
        #expect(records.map(\.caseID) == ["products.get/found", "products.create/created"])
        #expect(records.map(\.path) == ["/api/products/1", "/api/products"])
        let text = String(decoding: usage.bytes, as: UTF8.self)
        #expect(!text.contains("usage-secret") && !text.contains("Bearer") && !text.contains("market.example.com"), "\(text)")
    }

    /// A stub made off any test's task (a shared one) names the test it answers on that test's
    /// task: the transport's path, which runs on the caller's task.
    @Test func aStubMadeOutsideATestNamesTheTestOnWhoseTaskItAnswers() async throws {
        let usage = try UsageFolder()
        let stub = try await Task.detached { try usage.stub() }.value
        let url = try #require(URL(string: Market.base + "/api/products/1"))
        _ = stub.answer(method: "GET", url: url, headers: ["Authorization": "Bearer t"], body: nil)
        #expect(try usage.records().map(\.test) == ["\(Self.suite)/aStubMadeOutsideATestNamesTheTestOnWhoseTaskItAnswers()"])
    }

    /// A test outside a suite is named after its module.
    @Test(arguments: [("ContractTestingTests", ["Outer", "Inner", "fetch()"], "ContractTestingTests.Outer.Inner/fetch()"), ("M", ["free()"], "M/free()")])
    func aSwiftTestingNameIsItsModuleSuitesAndFunction(module: String, path: [String], expected: String) {
        #expect(UsageNames.swiftTesting(module: module, path: path) == expected)
    }

    /// XCTest names a test `Class.testMethod` on Linux and `-[Class testMethod]` on Apple
    /// platforms; a record names it one way, after its class's module.
    @Test(arguments: [
        ("MarketClientTests.testFetch", "testFetch"), ("-[MarketClientTests testFetch]", "testFetch"),
        ("-[MarketAppTests.MarketClientTests testFetch]", "testFetch"), ("testFetch", "testFetch"),
    ])
    func anXCTestNameIsOneFormOnEveryPlatform(name: String, method: String) {
        #expect(UsageNames.xcTestMethod(name) == method)
    }

    @Test func aPrivateXCTestClassIsNamedWithoutItsAddress() {
        #expect(UsageNames.xcTestClass("MarketAppTests.(unknown context at $10b4c2f10).MarketClientTests") == "MarketAppTests.MarketClientTests")
        #expect(UsageNames.xcTestClass("MarketAppTests.MarketClientTests") == "MarketAppTests.MarketClientTests")
    }
}
