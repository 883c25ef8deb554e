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
/// stub.use("products.get", case: "missing")
/// ```
public final class ContractStub: @unchecked Sendable {
    public enum Fault: Sendable {
        /// The fixture's response with another status code.
        case status(Int)
        /// The load fails with this error, as when offline (`.notConnectedToInternet`) or timing out.
        case error(URLError.Code)
        /// The fixture's response, after a pause.
        case delay(Duration)
        /// A body that is not valid JSON, to test decoding failures.
        case undecodableBody
    }

    /// A request the stub received, for assertions.
    public struct Received: Sendable {
        public var method: String
        public var url: URL
        public var headers: [String: String]
        public var body: Data?
        /// The fixture that answered, or nil when none matched.
        public var fixture: String?
    }

    public let fixtures: [StubFixture]
    let slot: Int
    private let lock = NSLock()
    private var chosenCases: [String: String] = [:]
    private var faults: [(contract: String?, fault: Fault)] = []
    private var received: [Received] = []

    /// - Throws: when more stubs are alive at once than ``StubSlots/count`` (release old ones).
    public init(fixtures: FixtureSet) throws(FixtureLoadError) {
        self.fixtures = fixtures.fixtures
        guard let slot = StubSlots.shared.acquire() else {
            throw FixtureLoadError("more than \(StubSlots.count) ContractStubs are alive at once")
        }
        self.slot = slot
        StubSlots.shared.install(self, at: slot)
    }

    deinit {
        StubSlots.shared.release(slot)
    }

    /// Adds this stub's protocol to a configuration. On Linux a custom configuration never
    /// consults globally registered protocols, so this is the way in on every platform.
    public func configure(_ configuration: URLSessionConfiguration) {
        configuration.protocolClasses = [StubSlots.protocolClass(for: slot)] + (configuration.protocolClasses ?? [])
    }

    /// An ephemeral session served by this stub.
    public func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configure(configuration)
        return URLSession(configuration: configuration)
    }

    /// Answers requests to `contract` with its case `name` (`"missing"`), from now on.
    public func use(_ contract: String, case name: String) {
        lock.locked { chosenCases[contract] = name }
    }

    /// Applies `fault` to requests answered by `contract`'s fixtures, or to every request.
    public func inject(_ fault: Fault, for contract: String? = nil) {
        lock.locked { faults.append((contract, fault)) }
    }

    public func removeFaults() {
        lock.locked { faults.removeAll() }
    }

    /// Every request received so far, in order.
    public var requests: [Received] {
        lock.locked { received }
    }

    // MARK: Serving (called by the protocol)

    enum Answer {
        case response(HTTPURLResponse, Data?, delay: Duration?)
        case failure(Error)
    }

    func answer(_ request: URLRequest) -> Answer {
        let method = request.httpMethod ?? "GET"
        let body = request.httpBody ?? request.httpBodyStream.map(Self.read)
        guard let url = request.url else { return .failure(URLError(.badURL)) }
        let (chosen, faultList) = lock.locked { (chosenCases, faults) }
        let match = StubMatcher(fixtures: fixtures, chosenCases: chosen).match(method: method, url: url)
        lock.locked {
            received.append(Received(method: method, url: url, headers: request.allHTTPHeaderFields ?? [:], body: body, fixture: match.fixture?.name))
        }
        guard let fixture = match.fixture else {
            return .failure(URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: match.explanation, NSURLErrorFailingURLErrorKey: url]))
        }
        var status = fixture.status
        var data = fixture.body
        var delay: Duration? = nil
        for (contract, fault) in faultList where contract == nil || contract == fixture.contract {
            switch fault {
            case .status(let code): status = code
            case .error(let code): return .failure(URLError(code, userInfo: [NSURLErrorFailingURLErrorKey: url]))
            case .delay(let duration): delay = duration
            case .undecodableBody: data = Data("{\"truncated\": ".utf8)
            }
        }
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fixture.headers) else {
            return .failure(URLError(.cannotParseResponse))
        }
        return .response(response, data, delay: delay)
    }

    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
