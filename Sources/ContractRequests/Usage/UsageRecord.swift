/// One request a test process's stubs (or a mock server) received, as `contract coverage` reads
/// it: which contract and case answered, or that none did, or that it broke its contract, and the
/// test that sent it. Recorded only when the environment names a folder (``UsageRecorder``).
public struct UsageRecord: Sendable, Hashable {
    /// How the request fared.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A fixture answered, and the request keeps its endpoint's description.
        case answered
        /// A fixture's endpoint took it, and the request breaks the endpoint's description.
        case invalid
        /// No fixture matched it.
        case unmatched
    }

    /// What a violation records: where, and by which keyword (the message is the stub's, shown in
    /// the test's failure; the usage file keeps what a summary over the suite groups by).
    public struct Violation: Sendable, Hashable {
        public var place: String
        public var keyword: String
        public var message: String

        public init(place: String, keyword: String, message: String) {
            self.place = place
            self.keyword = keyword
            self.message = message
        }
    }

    /// The violations a record keeps of a request's (its first ``UsageLog/maxViolations``), as the
    /// stubs and the mock server both record them.
    public static func violations(_ violations: [RequestViolation]) -> [Violation] {
        violations.prefix(UsageLog.maxViolations).map { Violation(place: $0.place, keyword: $0.keyword, message: $0.message) }
    }

    /// The contract id of the fixture that answered or whose endpoint took the request; for an
    /// unmatched request, the nearest fixture's contract, when one is near.
    public var contract: String?
    /// The case that answered; for an unmatched request, nil.
    public var caseName: String?
    public var outcome: Outcome
    /// The request was let through on purpose (`allowInvalidRequests`): a test of how the app
    /// handles a refusal, not a defect of the app.
    public var relaxed: Bool
    /// The test that sent it (`MarketAppTests.MarketClientTests/testFetch`, `fetchesAProduct()`),
    /// when the recorder could tell.
    public var test: String?
    /// `GET`, `POST`…
    public var method: String
    /// The path as sent, without its query (a query may hold a credential; a path never should).
    public var path: String
    /// For an unmatched request: the nearest fixture (`products.get/found`) and why it did not take it.
    public var nearest: String?
    public var reason: String?
    /// For an invalid request: how it breaks its contract, at most ``UsageLog/maxViolations``.
    public var violations: [Violation]

    public init(
        contract: String?, caseName: String?, outcome: Outcome, relaxed: Bool = false, test: String?, method: String, path: String,
        nearest: String? = nil, reason: String? = nil, violations: [Violation] = []
    ) {
        self.contract = contract
        self.caseName = caseName
        self.outcome = outcome
        self.relaxed = relaxed
        self.test = test
        self.method = method
        self.path = path
        self.nearest = nearest
        self.reason = reason
        self.violations = violations
    }

    /// `products.get/found`, or nil for a request no case answered.
    public var caseID: String? {
        guard let contract, let caseName else { return nil }
        return "\(contract)/\(caseName)"
    }
}
