import ContractJSON
import ContractMockServer
import ContractRequests
import Foundation
import Testing

/// The mock server records the requests it answers for `contract coverage`, as the stubs do:
/// the contract and case, or how the request broke its contract, or the nearest route and why
/// none took it; the test the request names in `Contract-Test`, and no other header. Over real
/// HTTP on loopback.
struct MockServerUsageTests {
    typealias Harness = MockServerHarness

    final class Usage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-usage-\(UUID().uuidString)")
        let recorder: UsageRecorder

        init() throws {
            recorder = try UsageRecorder.create(folder: folder.path, recorder: "ContractMockServer")
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }

        var text: String { (try? String(contentsOfFile: recorder.path, encoding: .utf8)) ?? "" }

        func records() throws -> [UsageRecord] {
            try UsageLog.read(Array(text.utf8)).get().records
        }
    }

    static let test = ("Contract-Test", "MarketUITests.CheckoutTests/testBuy")

    @Test func eachOutcomeIsRecordedWithTheTestTheRequestNames() async throws {
        let usage = try Usage()
        let harness = try Harness(usage: usage.recorder)
        let sent: [(String, String, [(String, String)], String?, Int)] = [
            ("GET", "/api/products/1?api_key=usage-secret-key", [Self.test], nil, 200),
            ("GET", "/api/products/1", [("Contract-Test", "  "), ("Prefer", "case=missing")], nil, 404),
            ("POST", "/api/products", [Self.test, Harness.token, Harness.json], #"{"nme": "Eraser", "price": 0.8, "currency": "KRW"}"#, 400),
            ("GET", "/api/products?page_no=0", [Self.test, Harness.token, ("Prefer", "case=invalid-page")], nil, 400),
            ("GET", "/api/prodcts/1", [Self.test], nil, 404),
            ("GET", "/api/products/1", [Self.test, ("Prefer", "case=usage-secret-case")], nil, 404),
        ]
        for (method, path, headers, body, status) in sent {
            let response = try await harness.response(method, path, headers: headers, body: body)
            #expect(response.status == status, "\(method) \(path)")
        }
        // The control API is the test's, not the app's: not recorded.
        #expect(try await harness.response("GET", "/__contract/requests", headers: [Self.test]).status == 200)

        let records = try usage.records()
        try #require(records.count == 6, "\(usage.text)")
        let test = Self.test.1
        #expect(records[0] == UsageRecord(contract: "products.get", caseName: "found", outcome: .answered, test: test, method: "GET", path: "/api/products/1"))
        #expect(records[1] == UsageRecord(contract: "products.get", caseName: "missing", outcome: .answered, test: nil, method: "GET", path: "/api/products/1"))
        #expect(records[2].outcome == .invalid && !records[2].relaxed && records[2].caseID == "products.create/created" && records[2].test == test)
        #expect(records[2].violations.contains(UsageRecord.Violation(
            place: "body /nme", keyword: "additionalProperties", message: "unexpected property 'nme', did you mean 'name'?")))
        #expect(records[3].outcome == .invalid && records[3].relaxed && records[3].caseID == "products.list/invalid-page" && records[3].path == "/api/products")
        #expect(records[4] == UsageRecord(
            contract: "products.get", caseName: nil, outcome: .unmatched, test: test, method: "GET", path: "/api/prodcts/1",
            nearest: "products.get/found", reason: "path segment 2 is 'prodcts', the template has 'products'"))
        #expect(records[5].outcome == .unmatched && records[5].contract == "products.get" && records[5].nearest == nil)
        #expect(records[5].reason?.hasPrefix("its Prefer header asks for a case products.get does not have") == true)
        #expect(!usage.text.contains("usage-secret") && !usage.text.contains("Bearer"), "\(usage.text)")
    }

    /// Let through on purpose, by the server's options or the test's call: relaxed.
    @Test func aRequestAnsweredAnywayIsRecordedRelaxed() async throws {
        let usage = try Usage()
        var options = MockServer.Options()
        options.lenient = true
        let harness = try Harness(options: options, usage: usage.recorder)
        let response = try await harness.response("POST", "/api/products", headers: [Harness.token, Harness.json], body: #"{"price": 0.8, "currency": "KRW"}"#)
        #expect(response.status == 201)
        let record = try #require(try usage.records().first)
        #expect(record.outcome == .invalid && record.relaxed && record.violations.map(\.keyword) == ["required"])
    }

    /// A server given no recorder (nor a folder by the environment) records nothing.
    @Test func aServerWithoutARecorderRecordsNothing() async throws {
        let harness = try Harness(usage: nil)
        #expect(harness.server.usage == nil)
        #expect(try await harness.response("GET", "/api/products/1").status == 200)
    }
}
