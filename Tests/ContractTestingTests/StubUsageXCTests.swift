@_spi(Usage) import ContractTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// In XCTest the stubs name a request's test through an observer of XCTest's tests, the same
/// `Module.Class/testMethod` on Linux and Apple platforms.
final class StubUsageXCTests: XCTestCase {
    /// A stub that records, made before this class's first test starts: it registers the
    /// observer, so each test here is seen starting and its records are written as they are made.
    /// (A process whose first recording stub is made inside a test holds that test's records
    /// until it ends; `UsageRecordingProcessTests` runs one.)
    nonisolated(unsafe) static var warmUp: (UsageFolder, ContractStub)?

    override class func setUp() {
        super.setUp()
        if let usage = try? UsageFolder(), let stub = try? usage.stub() { warmUp = (usage, stub) }
    }

    override class func tearDown() {
        warmUp = nil
        super.tearDown()
    }

    func testARequestIsRecordedWithTheRunningTestsName() throws {
        let usage = try UsageFolder()
        let stub = try usage.stub()
        let done = expectation(description: "answered")
        var request = URLRequest(url: try XCTUnwrap(URL(string: Market.base + "/api/products/1")))
        request.setValue("Bearer test", forHTTPHeaderField: "Authorization")
        stub.makeSession().dataTask(with: request) { _, _, _ in done.fulfill() }.resume()
        wait(for: [done], timeout: 600)
        XCTAssertEqual(
            try usage.records(),
            [UsageRecord(contract: "products.get", caseName: "found", outcome: .answered, test: "ContractTestingTests.StubUsageXCTests/testARequestIsRecordedWithTheRunningTestsName", method: "GET", path: "/api/products/1")])
    }

    /// A stub kept from another test (a class's shared one) names the test running when it
    /// answers, which XCTest knows from any thread.
    func testAStubMadeBeforeTheTestNamesTheTestItAnswersIn() throws {
        let (usage, stub) = try XCTUnwrap(Self.warmUp)
        let before = try usage.records().count
        let done = expectation(description: "answered")
        let url = try XCTUnwrap(URL(string: Market.base + "/health"))
        stub.makeSession().dataTask(with: url) { _, _, _ in done.fulfill() }.resume()
        wait(for: [done], timeout: 600)
        XCTAssertEqual(try usage.records().dropFirst(before).map(\.test), ["ContractTestingTests.StubUsageXCTests/testAStubMadeBeforeTheTestNamesTheTestItAnswersIn"])
    }
}
