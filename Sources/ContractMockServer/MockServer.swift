import ContractRequests
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Fixtures served over real HTTP/1.1, for clients a `URLProtocol` cannot reach: an app under
/// XCUITest (in another process), a simulator build, a browser, another team's client. Routes
/// and checks requests as `ContractStub` does (the same ``RouteTable`` and ``RequestChecker``),
/// answers with the same fixture bytes, and takes the same calls: ``use(_:case:)``,
/// ``inject(_:times:)``, ``requests``. The control API (``controlPrefix``) makes the same calls
/// over HTTP, for clients that are not Swift.
///
/// ```swift
/// let server = try MockServer(fixturesIn: fixturesFolder)
/// try server.start()
/// app.launchEnvironment["API_BASE_URL"] = server.baseURL
/// ```
public final class MockServer: Sendable {
    public struct Options: Sendable, Hashable {
        /// The address to listen on; the loopback address unless the server is meant for other machines.
        public var host = "127.0.0.1"
        /// 0 picks a free port (read it from ``MockServer/port`` once started).
        public var port = 0
        /// Answer a request that breaks its contract with its fixture anyway (it is still journaled
        /// with its violations), rather than with a 400 problem.
        public var lenient = false
        /// Answer browsers' CORS preflights and allow any origin, with credentials.
        public var cors = false
        /// A request body over this many bytes gets a 413 problem and the connection is closed.
        public var maxBodyBytes = 16 << 20
        /// The request bodies being received or answered on all connections together hold at most this many
        /// bytes (and at least ``maxBodyBytes``); a body past it gets a 503 problem.
        public var maxBodiesBytes = 256 << 20
        /// Requests given to the thread pool to be checked against their contracts at once
        /// (queued or running); one past it gets a 503 problem.
        public var maxChecks = 256
        /// Connections open at once; one past it is closed as it comes. Kept below the process's
        /// limit of open files, so a client that opens hundreds never makes accepting spin.
        public var maxConnections = 1_000
        /// A connection that sends nothing for this long, with no answer pending, is closed,
        /// a request cut off in the middle included.
        public var idleTimeout = Duration.seconds(60)
        /// The journal keeps the newest this many requests…
        public var journalLimit = 10_000
        /// …holding this many bytes of their text at most (paths, queries, headers, bodies), so a
        /// full journal stays near that size whatever clients send.
        public var journalByteLimit = 32 << 20
        /// The journal keeps this many bytes of each request's body (and counts them all).
        public var journalBodyLimit = 4 << 10

        public init() {}
    }

    /// Paths under this prefix are the control API's, never a contract's.
    public static let controlPrefix = "/__contract"

    public let options: Options
    /// Where the requests the server answers are recorded for `contract coverage` (one line per
    /// request: the contract and case, or that none matched, and the test the request names in
    /// ``testNameHeader``); nil: not recorded. Control API calls and preflights are not recorded.
    public let usage: UsageRecorder?
    let state: NIOLockedValueBox<State>
    private let onRequest: (@Sendable (Received) -> Void)?
    private let listener = NIOLockedValueBox<Listener?>(nil)

    /// What the server answers with and how: replaced as a whole when the contracts change,
    /// except what tests chose (cases, faults, relaxed checks) and the journal, which stay.
    struct State: Sendable {
        var set: ServedSet
        var chosen: [String: String] = [:]
        var faults: [Injected] = []
        var journal: Journal
        var sequence = 0
        var allowsEveryInvalidRequest = false
        var relaxed: Set<String> = []
    }

    struct Injected: Sendable {
        var contract: String?
        var fault: MockFault
        /// How many more answers it applies to; nil for all.
        var remaining: Int?
    }

    private struct Listener: Sendable {
        let channel: Channel
        let port: Int
        let connections: NIOLockedValueBox<[ObjectIdentifier: Channel]>
    }

    /// The recorder of the mock servers a process starts in-process (a UI test's) when the
    /// environment names a folder (`CONTRACT_USAGE_DIR`), as ContractTesting's stubs record;
    /// nil when it names none. One file per process, made by the first server.
    public static let usageFromEnvironment: UsageRecorder? = UsageRecorder.fromEnvironment(recorder: "ContractMockServer")

    /// - Parameters:
    ///   - onRequest: called with each request once it is answered (on a server thread), for a
    ///     log; the journal keeps them anyway.
    ///   - usage: where the requests answered are recorded (``usage``): by default the folder
    ///     `CONTRACT_USAGE_DIR` names (``usageFromEnvironment``); nil records nothing.
    public init(
        fixtures: [FixtureFile], options: Options = Options(), onRequest: (@Sendable (Received) -> Void)? = nil,
        usage: UsageRecorder? = MockServer.usageFromEnvironment
    ) {
        self.options = options
        self.onRequest = onRequest
        self.usage = usage
        state = NIOLockedValueBox(State(set: ServedSet(fixtures), journal: Journal(limit: options.journalLimit, byteLimit: options.journalByteLimit)))
    }

    deinit {
        close(waiting: false)
    }

    /// `wanted`, kept 64 below the process's limit of open files (the server's own files, and a
    /// connection accepted before it is closed), and at least 16.
    static func connectionLimit(_ wanted: Int) -> Int {
        var files = rlimit()
        #if canImport(Glibc)
        let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &files) == 0, files.rlim_cur < rlim_t(Int32.max) else { return max(16, wanted) }
        return max(16, min(wanted, Int(files.rlim_cur) - 64))
    }

    /// Starts listening; returns once the port is bound.
    /// - Throws: ``MockServerError/Code/cannotListen`` when the address cannot be bound.
    public func start() throws(MockServerError) {
        guard listener.withLockedValue({ $0 }) == nil else { return }
        let connections = NIOLockedValueBox<[ObjectIdentifier: Channel]>([:])
        let limits = MockHTTPHandler.Limits(
            maxBodyBytes: options.maxBodyBytes, budget: SharedBound(limit: max(options.maxBodiesBytes, options.maxBodyBytes)),
            checks: SharedBound(limit: options.maxChecks))
        let maxConnections = Self.connectionLimit(options.maxConnections)
        let idle = TimeAmount.nanoseconds(Self.nanoseconds(options.idleTimeout))
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // Weakly: a server nobody holds closes (its deinit), while each open connection's
            // handler holds it until the connection ends.
            .childChannelInitializer { [weak self] channel in
                guard let self else { return channel.close() }
                let id = ObjectIdentifier(channel)
                let open = connections.withLockedValue { open in
                    open[id] = channel
                    return open.count
                }
                channel.closeFuture.whenComplete { _ in _ = connections.withLockedValue { $0.removeValue(forKey: id) } }
                guard open <= maxConnections else { return channel.close() }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(MockHTTPHandler(server: self, limits: limits))
                }
            }
            .childChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            // A client that shuts its side after sending (`nc -N`, some HTTP/1.0 tools) still gets
            // its answer: the pipeline holds the end of input until the answer is written.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
        do {
            let channel = try bootstrap.bind(host: options.host, port: options.port).wait()
            let port = channel.localAddress?.port ?? options.port
            listener.withLockedValue { $0 = Listener(channel: channel, port: port, connections: connections) }
        } catch {
            throw MockServerError(.cannotListen, "cannot listen on \(options.host):\(options.port): \(error)")
        }
    }

    /// Stops listening and closes every connection, then returns; a stopped server can be
    /// started again.
    public func stop() {
        close(waiting: true)
    }

    private func close(waiting: Bool) {
        guard let listener = listener.withLockedValue({ current -> Listener? in
            defer { current = nil }
            return current
        }) else { return }
        let channels = [listener.channel] + listener.connections.withLockedValue { Array($0.values) }
        for channel in channels {
            if waiting { try? channel.close().wait() } else { channel.close(promise: nil) }
        }
    }

    /// The port listened on, once started (the free one picked for port 0); nil before.
    public var port: Int? {
        listener.withLockedValue { $0?.port }
    }

    /// `http://127.0.0.1:8080`, once started; hand it to the app under test.
    public var baseURL: String? {
        guard let port else { return nil }
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        return "http://\(host):\(port)"
    }

    /// Serves `fixtures` from now on; the cases chosen, faults, relaxed checks and the journal stay.
    public func replace(fixtures: [FixtureFile]) {
        let set = ServedSet(fixtures)
        state.withLockedValue { $0.set = set }
    }

    /// The fixtures served now.
    public var fixtures: [FixtureFile] {
        state.withLockedValue { $0.set.fixtures }
    }

    // MARK: The calls of ContractStub

    /// Answers requests to `contract` with its case `name` (`"missing"`), from now on.
    /// - Throws: when no fixture has that contract id or case name; the error names the nearest.
    public func use(_ contract: String, case name: String) throws(MockServerError) {
        try check(contract: contract, caseName: name, call: "use(\(contract.debugDescription), case: \(name.debugDescription))")
        state.withLockedValue { $0.chosen[contract] = name }
    }

    /// Applies `fault` to every answer, or to the next `times` answers only.
    public func inject(_ fault: MockFault, times: Int? = nil) throws(MockServerError) {
        try inject(fault, contract: nil, times: times)
    }

    /// Applies `fault` to the answers of `contract`'s cases, or to the next `times` of them.
    /// - Throws: when no fixture has that contract id; the error names the nearest.
    public func inject(_ fault: MockFault, for contract: String, times: Int? = nil) throws(MockServerError) {
        try check(contract: contract, caseName: nil, call: "inject(_:for: \(contract.debugDescription))")
        try inject(fault, contract: contract, times: times)
    }

    private func inject(_ fault: MockFault, contract: String?, times: Int?) throws(MockServerError) {
        switch fault.base {
        // A 1xx is an interim answer, never the answer: HTTP/1.1 cannot carry it as one.
        case .status(let code) where !(200...599).contains(code):
            throw MockServerError(.invalidFault, "a status fault takes a status from 200 to 599 (a 1xx is not an answer over HTTP), not \(code)")
        case .delay(let duration) where duration < .zero || duration > MockFault.longestDelay:
            throw MockServerError(.invalidFault, "a delay fault takes from 0 to 3600 seconds, not \(duration)")
        default: break
        }
        if let times, times < 1 { throw MockServerError(.invalidFault, "a fault applies to 1 answer or more, not \(times)") }
        state.withLockedValue { $0.faults.append(Injected(contract: contract, fault: fault, remaining: times)) }
    }

    public func removeFaults() {
        state.withLockedValue { $0.faults.removeAll() }
    }

    /// Every request received, oldest first (the newest ``Options/journalLimit``).
    public var requests: [Received] {
        state.withLockedValue { Array($0.journal.all) }
    }

    /// The requests no fixture answered, each with its ``Received/mismatch``.
    public var unmatchedRequests: [Received] {
        requests.filter { $0.mismatch != nil }
    }

    /// The requests that break their endpoint's description, each with its ``Received/violations``.
    public var invalidRequests: [Received] {
        requests.filter { !$0.violations.isEmpty }
    }

    /// Answers every request that breaks its contract with its fixture anyway (still journaled).
    public func allowInvalidRequests() {
        state.withLockedValue { $0.allowsEveryInvalidRequest = true }
    }

    /// Relaxes the checks of one contract's requests only.
    public func allowInvalidRequests(to contract: String) throws(MockServerError) {
        try check(contract: contract, caseName: nil, call: "allowInvalidRequests(to: \(contract.debugDescription))")
        _ = state.withLockedValue { $0.relaxed.insert(contract) }
    }

    /// Relaxes the checks of the requests one case answers only (a negative case's own request).
    public func allowInvalidRequests(to contract: String, case name: String) throws(MockServerError) {
        try check(
            contract: contract, caseName: name,
            call: "allowInvalidRequests(to: \(contract.debugDescription), case: \(name.debugDescription))")
        _ = state.withLockedValue { $0.relaxed.insert("\(contract)/\(name)") }
    }

    /// The cases chosen with ``use(_:case:)`` that no request reached (`products.create/created`).
    public var chosenCasesNotRequested: [String] {
        state.withLockedValue { state in
            let answered = Set(state.journal.all.compactMap(\.fixture))
            return state.chosen.map { "\($0.key)/\($0.value)" }.filter { !answered.contains($0) }.sorted()
        }
    }

    /// Forgets the cases chosen, the faults, the relaxed checks and the journal, as at the start.
    public func reset() {
        state.withLockedValue { state in
            state.chosen = [:]
            state.faults = []
            state.allowsEveryInvalidRequest = false
            state.relaxed = []
            state.journal = Journal(limit: state.journal.limit, byteLimit: state.journal.byteLimit)
            state.sequence = 0
        }
    }

    func check(contract: String, caseName: String?, call: String) throws(MockServerError) {
        let routes = state.withLockedValue { $0.set.routes.routes }
        guard let (problem, message) = CaseNames.problem(contract: contract, caseName: caseName, in: routes, call: call, holder: "this server")
        else { return }
        switch problem {
        case .noRoutes: throw MockServerError(.noFixtures, message)
        case .unknownContract: throw MockServerError(.unknownContract, message)
        case .unknownCase: throw MockServerError(.unknownCase, message)
        }
    }

    func announce(_ received: Received) {
        onRequest?(received)
    }

    /// A duration in nanoseconds, at most a century's: `.seconds(Int64.max)`, meant as "never",
    /// is a long time, not an overflow.
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let century: Int64 = 100 * 365 * 86_400
        guard seconds < century else { return century * 1_000_000_000 }
        return max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
