import ContractTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs at the numbers real suites reach: XCTest keeps every test case (and the stub in its
/// property) alive until the run ends, and Swift Testing runs parameterized cases in parallel.
struct StubScaleTests {
    /// Each of a thousand parallel tests chooses its own case and its own fault, and sees only
    /// those and only its own requests.
    @Test(arguments: 0..<1000)
    func aThousandParallelTestsEachSeeOnlyTheirOwnStub(_ index: Int) async throws {
        let stub = try ContractStub(fixtures: Market.fixtures)
        let chosen = index.isMultiple(of: 2) ? "found" : "missing"
        let faultStatus = 400 + index % 600
        try stub.use("products.get", case: chosen)
        try stub.inject(.status(faultStatus), for: "health.get")
        let session = stub.makeSession()
        defer { session.finishTasksAndInvalidate() }

        let (productStatus, body) = try await Market.send(session, "/api/products/\(index + 1)")
        let (healthStatus, _) = try await Market.send(session, "/health?test=\(index)")
        #expect(productStatus == (chosen == "found" ? 200 : 404))
        #expect(String(decoding: body, as: UTF8.self).contains(chosen == "found" ? "Pencil" : "not_found"))
        #expect(healthStatus == faultStatus)
        #expect(stub.requests.map(\.url.absoluteString) == [
            "\(Market.base)/api/products/\(index + 1)", "\(Market.base)/health?test=\(index)",
        ])
        #expect(stub.requests.map(\.fixture) == ["products.get/\(chosen)", "health.get/ok"])
    }

    /// Far more than the 64 stubs there used to be room for, all alive at once: the last one made
    /// still routes its own session, and the first is untouched.
    @Test func tenThousandStubsAliveAtOnce() async throws {
        let stubs = try (0..<10_000).map { _ in try ContractStub(fixtures: Market.fixtures) }
        let first = try #require(stubs.first)
        let last = try #require(stubs.last)
        try last.use("products.get", case: "missing")
        let session = last.makeSession()
        defer { session.finishTasksAndInvalidate() }
        #expect(try await Market.send(session, "/api/products/7").0 == 404)
        #expect(last.requests.map(\.fixture) == ["products.get/missing"])
        #expect(first.requests.isEmpty)
        #expect(stubs.dropLast().allSatisfy { $0.requests.isEmpty })
    }
}
