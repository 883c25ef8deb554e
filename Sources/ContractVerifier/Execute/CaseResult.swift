import ContractHTTP

/// What happened to one case: the request as shown (secrets masked), the response in brief,
/// and every finding. Everything in it is safe to print.
public struct CaseResult: Sendable {
    /// How a case ended: ``passed``, ``failed`` or ``error``, written in reports as its
    /// ``rawValue`` (`"passed"`).
    ///
    /// A struct over an internal enum, not an enum, so an outcome added later (a case skipped, say)
    /// breaks no `switch`: compare with `==` (`result.outcome == .passed`), or `switch` with a
    /// `default`.
    public struct Outcome: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        enum Base: String, Hashable, Sendable {
            case passed
            case failed
            case error
        }

        let base: Base

        init(_ base: Base) {
            self.base = base
        }

        /// The outcome written as `rawValue` in a report; nil for a word that names none.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        /// `passed`, `failed` or `error`.
        public var rawValue: String { base.rawValue }

        public var description: String { rawValue }

        /// The response matched the contract.
        public static let passed = Outcome(.passed)
        /// A response came back and differs from the contract, or a setup step failed.
        public static let failed = Outcome(.failed)
        /// No response: a transport error on the case's own request or on a setup step's.
        public static let error = Outcome(.error)
    }

    public var contractID: String
    public var caseName: String
    /// The contract file, as shown in diagnostics.
    public var file: String
    public var outcome: Outcome
    /// The request that decided the outcome: the case's own, or the setup step that failed.
    public var request: DisplayedRequest
    public var response: ResponseSummary?
    public var findings: [Finding]
    /// Set when the outcome is `error`: the case's request, or a setup step's, got no response.
    public var transportError: TransportError?
    /// Requests sent for the deciding request, retries included.
    public var attempts: Int
    public var duration: Duration
    /// Its place in the plan of the whole run, every shard together (from 0); nil for a result
    /// made outside a plan.
    public var position: Int? = nil
    /// What went wrong in the case's teardown steps (kind ``Finding/Kind/teardown``): reported, but
    /// never the case's outcome, since cleaning up is not what the contract promises.
    public var teardown: [Finding] = []
    /// The setup steps sent and answered before ``request``, in the order sent, each with its
    /// request as shown (captured values filled in, secrets masked): with ``request`` last, the
    /// chain of requests that reproduces the state the case failed in. A setup step that failed
    /// is ``request`` itself, never here; teardown steps never are.
    ///
    /// Empty for a case that passed: no report shows how to reproduce one, and a run holds every
    /// result until it ends, so a passing case keeps nothing of its setup.
    public var chain: [ChainStep] = []

    public var name: String { "\(contractID)/\(caseName)" }

    /// True when nothing reached a server: DNS, refused connection, TLS.
    public var isUnreachable: Bool { transportError?.isUnreachable == true }
}

/// A setup step's request as a case's reproduction shows it (``CaseResult/chain``).
public struct ChainStep: Sendable, Hashable {
    /// The step's name in the contract (`create`).
    public var name: String
    public var request: DisplayedRequest

    public init(name: String, request: DisplayedRequest) {
        self.name = name
        self.request = request
    }
}

/// A response as reports show it: no body, which findings quote where it matters.
public struct ResponseSummary: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var httpVersion: String
    public var bodyBytes: Int
    public var timings: HTTPTimings
}
