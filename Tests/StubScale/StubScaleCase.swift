import ContractTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The way app suites use a stub: made in `setUp`, kept in a property. XCTest keeps every test
/// case (so every stub) until the run ends, so by the last test all 10,000 are alive at once.
/// Each stub gets fixtures of its own (the health fixture answers with the test's number) and
/// each test checks that the request through its own session reached its own stub.
class StubScaleCase: XCTestCase {
    static let fixtures = try! FixtureSet(bundle: .module)
    nonisolated(unsafe) static var made = 0

    var stub: ContractStub!
    var number = -1

    override func setUpWithError() throws {
        // `-[Scale07 test_01742]` or `Scale07.test_01742`: the digits at the end.
        number = Int(String(name.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }.reversed()))!
        let own = Self.fixtures.fixtures.map { fixture in
            var fixture = fixture
            if fixture.contract == "health.get" { fixture.headers["X-Stub-Test"] = "\(number)" }
            return fixture
        }
        stub = try ContractStub(fixtures: FixtureSet(fixtures: own))
        StubScaleCase.made += 1
    }

    /// Synchronous on purpose: Linux test discovery wraps each async test in `asyncTest(…)`,
    /// which makes its lists of 250 tests about five times slower to compile.
    func check() throws {
        let session = stub.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let url = URL(string: "https://market.example.com/health?test=\(number)")!
        let answer = Answer()
        session.dataTask(with: url) { _, response, error in answer.finish(response, error) }.resume()
        XCTAssertEqual(answer.done.wait(timeout: .now() + 30), .success, "no answer")
        XCTAssertNil(answer.error)
        let http = try XCTUnwrap(answer.response as? HTTPURLResponse)
        XCTAssertEqual(http.statusCode, 200)
        XCTAssertEqual(http.value(forHTTPHeaderField: "X-Stub-Test"), "\(number)", "answered by another test's stub")
        XCTAssertEqual(stub.requests.map(\.url), [url])
        XCTAssertEqual(stub.requests.map(\.fixture), ["health.get/ok"])
        try create(in: session)
    }

    /// A request the stub holds to its contract (a JSON body against its schema, a header the
    /// contract sends with every request), as an app's create call: what checking costs at scale.
    private func create(in session: URLSession) throws {
        var request = URLRequest(url: URL(string: "https://market.example.com/api/products")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer test-\(number)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"name": "Pencil \#(number)", "price": 1.5, "currency": "KRW"}"#.utf8)
        let answer = Answer()
        session.dataTask(with: request) { _, response, error in answer.finish(response, error) }.resume()
        XCTAssertEqual(answer.done.wait(timeout: .now() + 30), .success, "no answer")
        XCTAssertEqual((answer.response as? HTTPURLResponse)?.statusCode, 201)
        XCTAssertEqual(stub.requests.last?.fixture, "products.create/created")
    }

    /// What the session's completion handler hands back, on its own queue.
    final class Answer: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private(set) var response: URLResponse?
        private(set) var error: Error?

        /// Written before `done` is signalled, read after it: the semaphore orders the two.
        func finish(_ response: URLResponse?, _ error: Error?) {
            self.response = response
            self.error = error
            done.signal()
        }
    }

    /// After each class: how many stubs were made (and, since XCTest keeps its cases, are alive).
    override class func tearDown() {
        print("stub-scale: \(String(describing: self)) done, \(made) stubs alive, RSS \(residentMegabytes()) MB")
        super.tearDown()
    }
}

/// The resident set size, from /proc on Linux; 0 where there is none.
func residentMegabytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}
