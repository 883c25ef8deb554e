import ContractRequests
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves fixtures to `URLSession` in unit tests. Each stub routes only its own sessions (made by
/// ``makeSession()`` or configured by ``configure(_:)``), so tests running in parallel never see
/// each other's fixtures, choices or faults: there is no shared static handler.
///
/// ```swift
/// let stub = try ContractStub(fixtures: FixtureSet(bundle: .module))
/// let client = MarketClient(session: stub.makeSession())
/// try stub.use("products.get", case: "missing")
/// ```
///
/// Each live stub holds one of ``StubSlots/capacity`` (1,048,576) slots, given back when it is
/// released. An idle stub costs about 1.2 KB (measured on Linux with `scripts/stub-scale`): a
/// quarter for the stub, the rest for the runtime's metadata of its slot's class, made once and
/// kept for the next stub in that slot. Stubs made from one `FixtureSet` share its fixtures.
public final class ContractStub: @unchecked Sendable {
    /// What ``inject(_:)`` makes of the answers: `.status(503)`, `.error(.timedOut)`,
    /// `.delay(.seconds(2))`, `.undecodableBody`.
    ///
    /// A struct over an internal enum, not an enum, so a fault added later breaks no `switch`:
    /// read a fault's value with ``statusCode``, ``errorCode`` and ``duration``.
    public struct Fault: Hashable, Sendable, CustomStringConvertible {
        enum Base: Hashable, Sendable {
            case status(Int)
            case error(URLError.Code)
            case delay(Duration)
            case undecodableBody
        }

        let base: Base

        /// The fixture's response with another status code.
        public static func status(_ code: Int) -> Fault { Fault(base: .status(code)) }
        /// The load fails with this error, as when offline (`.notConnectedToInternet`) or timing out.
        public static func error(_ code: URLError.Code) -> Fault { Fault(base: .error(code)) }
        /// The fixture's response, after a pause.
        public static func delay(_ duration: Duration) -> Fault { Fault(base: .delay(duration)) }
        /// A body that is not valid JSON, to test decoding failures.
        public static let undecodableBody = Fault(base: .undecodableBody)

        /// The status of a `.status` fault, else nil.
        public var statusCode: Int? {
            if case .status(let code) = base { code } else { nil }
        }

        /// The error code of an `.error` fault, else nil.
        public var errorCode: URLError.Code? {
            if case .error(let code) = base { code } else { nil }
        }

        /// The pause of a `.delay` fault, else nil.
        public var duration: Duration? {
            if case .delay(let duration) = base { duration } else { nil }
        }

        /// `status(503)`, `error(-1009)`, `delay(2.0 seconds)`, `undecodableBody`.
        public var description: String {
            switch base {
            case .status(let code): "status(\(code))"
            case .error(let code): "error(\(code.rawValue))"
            case .delay(let duration): "delay(\(duration))"
            case .undecodableBody: "undecodableBody"
            }
        }
    }

    /// A request the stub received, for assertions.
    public struct Received: Sendable {
        public var method: String
        public var url: URL
        public var headers: [String: String]
        public var body: Data?
        /// The fixture that answered, or nil when none matched.
        public var fixture: String?
        /// Why no fixture matched (code ``ContractStubError/Code/noMatchingFixture``): the method,
        /// URL, nearest fixture and what differs. Nil when a fixture answered.
        public var mismatch: ContractStubError?
        /// How the request breaks its endpoint's description (parameters, headers, body), each
        /// with its pointer, keyword and message; empty when it keeps it or matched no fixture.
        public var violations: [RequestViolation] = []
    }

    public let fixtures: [StubFixture]
    /// The fixtures as routes, shared with the set they came from.
    let routes: RouteTable
    let slot: Int
    private let lock = NSLock()
    private var chosenCases: [String: String] = [:]
    private var faults: [(contract: String?, fault: Fault)] = []
    private var received: [Received] = []
    private var additionalHeaders: [String: String] = [:]
    /// Relaxed: every request is answered as its fixture says, and nothing fails the test.
    private var allowsEveryInvalidRequest = false
    private var relaxedContracts: Set<String> = []
    /// Failures kept for the Swift Testing test that made the stub (see ``TestIssue``).
    private var pendingIssues: [String] = []
    /// Whether the stub was made inside a Swift Testing test, whose task records its failures.
    let madeInSwiftTesting = TestIssue.inSwiftTestingTest
    /// That test's name, to say so when another test records what the stub kept.
    let madeInTest = TestIssue.currentTestName
    /// Where the requests the stub answers are recorded for `contract coverage` (the folder
    /// `CONTRACT_USAGE_DIR` names); nil, and nothing recorded, when it names none.
    let usage: UsageRecorder?
    /// The test that made the stub, as usage records name it (``RunningTest``); read only when
    /// recording.
    let usageMadeInTest: String?

    /// Where the stub was made: a request that breaks its contract fails the test there, the
    /// place a reader looks for the stub's set-up.
    private let madeAt: (fileID: String, filePath: String, line: Int, column: Int)

    /// - Throws: when ``StubSlots/capacity`` stubs are already alive in the process, saying how
    ///   to release them.
    public convenience init(
        fixtures: FixtureSet, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws(FixtureLoadError) {
        try self.init(fixtures: fixtures, usage: UsageRecorder.testing, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// A stub that records the requests it answers with `usage` rather than in the folder the
    /// environment names: for tests of the recording, which cannot set the environment of their
    /// own process, and read back a file of their own.
    @_spi(Usage) public init(
        fixtures: FixtureSet, usage: UsageRecorder?, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) throws(FixtureLoadError) {
        self.fixtures = fixtures.fixtures
        routes = fixtures.routes
        madeAt = (fileID, filePath, line, column)
        self.usage = usage
        usageMadeInTest = usage == nil ? nil : RunningTest.atStubInit()
        slot = try StubSlots.shared.acquire()
        StubSlots.shared.install(self, at: slot)
    }

    deinit {
        reportPendingIssues(atEnd: true)
        StubSlots.shared.release(slot)
    }

    /// Adds this stub's protocol to a configuration. On Linux a custom configuration never
    /// consults globally registered protocols, so this is the way in on every platform.
    ///
    /// The configuration's `httpAdditionalHeaders` (an app's `Authorization`, `User-Agent`) never
    /// reach a protocol, so the stub keeps them and checks each request with them, under the
    /// request's own.
    public func configure(_ configuration: URLSessionConfiguration) {
        configuration.protocolClasses = [StubSlots.shared.protocolClass(for: slot)] + (configuration.protocolClasses ?? [])
        var headers: [String: String] = [:]
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        lock.locked { additionalHeaders.merge(headers) { _, new in new } }
    }

    /// The headers of the sessions it configured (`httpAdditionalHeaders`).
    var sessionHeaders: [String: String] {
        lock.locked { additionalHeaders }
    }

    /// An ephemeral session served by this stub.
    public func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configure(configuration)
        return URLSession(configuration: configuration)
    }

    /// Answers requests to `contract` with its case `name` (`"missing"`), from now on.
    /// - Throws: when no fixture has that contract id or case name; the error names the nearest
    ///   one, and the earlier choice stays.
    public func use(_ contract: String, case name: String) throws(ContractStubError) {
        reportPendingIssues()
        try ContractStubError.check(
            contract: contract, caseName: name, in: fixtures, call: "use(\(contract.debugDescription), case: \(name.debugDescription))")
        lock.locked { chosenCases[contract] = name }
    }

    /// Applies `fault` to every request.
    public func inject(_ fault: Fault) {
        reportPendingIssues()
        lock.locked { faults.append((nil, fault)) }
    }

    /// Applies `fault` to requests answered by `contract`'s fixtures.
    /// - Throws: when no fixture has that contract id; the error names the nearest one.
    public func inject(_ fault: Fault, for contract: String) throws(ContractStubError) {
        reportPendingIssues()
        try ContractStubError.check(contract: contract, in: fixtures, call: "inject(_:for: \(contract.debugDescription))")
        lock.locked { faults.append((contract, fault)) }
    }

    public func removeFaults() {
        reportPendingIssues()
        lock.locked { faults.removeAll() }
    }

    /// Every request received so far, in order.
    public var requests: [Received] {
        reportPendingIssues()
        return lock.locked { received }
    }

    /// The requests no fixture matched, in order, each with its ``Received/mismatch``: a test
    /// can assert that none went astray (`#expect(stub.unmatchedRequests.isEmpty)`), or see why.
    public var unmatchedRequests: [Received] {
        reportPendingIssues()
        return lock.locked { received.filter { $0.mismatch != nil } }
    }

    /// The requests that break their endpoint's description, in order, each with its
    /// ``Received/violations``.
    public var invalidRequests: [Received] {
        reportPendingIssues()
        return lock.locked { received.filter { !$0.violations.isEmpty } }
    }

    /// Relaxes the stub, for a test that sends bad requests on purpose: a request that breaks its
    /// contract, or that no fixture matches, no longer fails the test, and one that breaks its
    /// contract gets its fixture's answer rather than a 400. Each is still kept, with its
    /// violations or mismatch, in ``requests``.
    public func allowInvalidRequests() {
        lock.locked { allowsEveryInvalidRequest = true }
    }

    /// Relaxes the checks of one contract's requests only (see ``allowInvalidRequests()``).
    /// - Throws: when no fixture has that contract id; the error names the nearest one.
    public func allowInvalidRequests(to contract: String) throws(ContractStubError) {
        try ContractStubError.check(contract: contract, in: fixtures, call: "allowInvalidRequests(to: \(contract.debugDescription))")
        lock.locked { _ = relaxedContracts.insert(contract) }
    }

    /// Relaxes the checks of the requests one case answers only: a test of how the app handles a
    /// refusal sends the negative case's own request (`page_no=0` for `products.list`'s
    /// `invalid-page`), and gets that case's answer, the server's own error body, rather than a
    /// problem; the contract's other requests stay strict.
    /// - Throws: when no fixture has that contract id or case name; the error names the nearest one.
    public func allowInvalidRequests(to contract: String, case name: String) throws(ContractStubError) {
        try ContractStubError.check(
            contract: contract, caseName: name, in: fixtures,
            call: "allowInvalidRequests(to: \(contract.debugDescription), case: \(name.debugDescription))")
        lock.locked { _ = relaxedContracts.insert("\(contract)/\(name)") }
    }

    /// Fails the test for each case chosen with ``use(_:case:)`` that no request reached
    /// (`expected request never came`), and returns them (`products.create/created`): a test
    /// that sets up an answer expects the app to ask for it.
    @discardableResult
    public func expectChosenCasesRequested(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) -> [String] {
        reportPendingIssues()
        let (chosen, answered) = lock.locked { (chosenCases, Set(received.compactMap(\.fixture))) }
        let missing = chosen.map { "\($0.key)/\($0.value)" }.filter { !answered.contains($0) }.sorted()
        for name in missing {
            TestIssue.record(
                "expected request never came: \(name) was chosen with use(_:case:), and no request reached it",
                fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return missing
    }

    /// The cases chosen and the faults injected so far, read together.
    func lockedState() -> (chosen: [String: String], faults: [(contract: String?, fault: Fault)]) {
        lock.locked { (chosenCases, faults) }
    }

    /// Whether a request a fixture answers (nil: one no fixture matched) may break the rules.
    func isRelaxed(for fixture: StubFixture?) -> Bool {
        lock.locked {
            guard let fixture else { return allowsEveryInvalidRequest }
            return allowsEveryInvalidRequest || relaxedContracts.contains(fixture.contract) || relaxedContracts.contains(fixture.name)
        }
    }

    /// Fails the running test with `message`: at once when the test can be told from here, else
    /// when the Swift Testing test that made the stub next calls it or releases it.
    ///
    /// Off a Swift Testing test's task (on `URLSession`'s threads), XCTest is told at once (it
    /// knows its running test from any thread, and ignores the call outside one), and the message
    /// is also kept for the next Swift Testing test that calls the stub: a stub made outside a
    /// test (a `static let`) and used from Swift Testing still fails a test, not none.
    func fail(_ message: String) {
        if TestIssue.inSwiftTestingTest {
            TestIssue.record(message, fileID: madeAt.fileID, filePath: madeAt.filePath, line: madeAt.line, column: madeAt.column)
            return
        }
        lock.locked { pendingIssues.append(message) }
        if !madeInSwiftTesting { TestIssue.recordInXCTest(message, fileID: madeAt.fileID, line: madeAt.line) }
    }

    /// Records the failures kept for the Swift Testing test that made the stub, when called in it.
    /// - Parameter atEnd: the stub is going away: a failure that still finds no test is printed
    ///   to standard error rather than lost.
    func reportPendingIssues(atEnd: Bool = false) {
        guard TestIssue.inSwiftTestingTest || (atEnd && madeInSwiftTesting) else { return }
        let messages = lock.locked {
            defer { pendingIssues.removeAll() }
            return pendingIssues
        }
        let current = TestIssue.currentTestName
        for var message in messages {
            if let madeInTest, let current, current != madeInTest {
                message = "(a request to the stub made in test \(madeInTest), recorded in this test because that one had ended) " + message
            }
            if !TestIssue.inSwiftTestingTest {
                FileHandle.standardError.write(Data("ContractTesting: after its test ended: \(message)\n".utf8))
            }
            TestIssue.record(message, fileID: madeAt.fileID, filePath: madeAt.filePath, line: madeAt.line, column: madeAt.column)
        }
    }

    func record(_ request: Received) {
        lock.locked { received.append(request) }
    }
}
