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
    }

    public let fixtures: [StubFixture]
    let slot: Int
    private let lock = NSLock()
    private var chosenCases: [String: String] = [:]
    private var faults: [(contract: String?, fault: Fault)] = []
    private var received: [Received] = []

    /// - Throws: when ``StubSlots/capacity`` stubs are already alive in the process, saying how
    ///   to release them.
    public init(fixtures: FixtureSet) throws(FixtureLoadError) {
        self.fixtures = fixtures.fixtures
        slot = try StubSlots.shared.acquire()
        StubSlots.shared.install(self, at: slot)
    }

    deinit {
        StubSlots.shared.release(slot)
    }

    /// Adds this stub's protocol to a configuration. On Linux a custom configuration never
    /// consults globally registered protocols, so this is the way in on every platform.
    public func configure(_ configuration: URLSessionConfiguration) {
        configuration.protocolClasses = [StubSlots.shared.protocolClass(for: slot)] + (configuration.protocolClasses ?? [])
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
        try ContractStubError.check(
            contract: contract, caseName: name, in: fixtures, call: "use(\(contract.debugDescription), case: \(name.debugDescription))")
        lock.locked { chosenCases[contract] = name }
    }

    /// Applies `fault` to every request.
    public func inject(_ fault: Fault) {
        lock.locked { faults.append((nil, fault)) }
    }

    /// Applies `fault` to requests answered by `contract`'s fixtures.
    /// - Throws: when no fixture has that contract id; the error names the nearest one.
    public func inject(_ fault: Fault, for contract: String) throws(ContractStubError) {
        try ContractStubError.check(contract: contract, in: fixtures, call: "inject(_:for: \(contract.debugDescription))")
        lock.locked { faults.append((contract, fault)) }
    }

    public func removeFaults() {
        lock.locked { faults.removeAll() }
    }

    /// Every request received so far, in order.
    public var requests: [Received] {
        lock.locked { received }
    }

    /// The requests no fixture matched, in order, each with its ``Received/mismatch``: a test
    /// can assert that none went astray (`#expect(stub.unmatchedRequests.isEmpty)`), or see why.
    public var unmatchedRequests: [Received] {
        lock.locked { received.filter { $0.mismatch != nil } }
    }

    /// The cases chosen and the faults injected so far, read together.
    func lockedState() -> (chosen: [String: String], faults: [(contract: String?, fault: Fault)]) {
        lock.locked { (chosenCases, faults) }
    }

    func record(_ request: Received) {
        lock.locked { received.append(request) }
    }
}
