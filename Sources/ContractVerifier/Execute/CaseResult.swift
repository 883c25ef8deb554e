import ContractHTTP

/// What happened to one case: the request as shown (secrets masked), the response in brief,
/// and every finding. Everything in it is safe to print.
public struct CaseResult: Sendable {
    public enum Outcome: String, Sendable {
        /// The response matched the contract.
        case passed
        /// A response came back and differs from the contract, or a setup step failed.
        case failed
        /// No response: a transport error on the case's own request.
        case error
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
    /// Set when the outcome is `error`, or a setup step could not be sent.
    public var transportError: TransportError?
    /// Requests sent for the deciding request, retries included.
    public var attempts: Int
    public var duration: Duration

    public var name: String { "\(contractID)/\(caseName)" }

    /// True when nothing reached a server: DNS, refused connection, TLS.
    public var isUnreachable: Bool { transportError?.isUnreachable == true }
}

/// A response as reports show it: no body, which findings quote where it matters.
public struct ResponseSummary: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var httpVersion: String
    public var bodyBytes: Int
    public var timings: HTTPTimings
}

/// What a run as a whole means for a CI job: its tallies, and the results it kept (every result
/// in plan order by default; only those that did not pass when ``VerifyOptions/keepsPassingResults``
/// is false, as the command line runs, its reporters having had every result as it came).
public struct VerifyReport: Sendable {
    public var baseURL: String
    public private(set) var results: [CaseResult]
    public var duration: Duration
    /// Reports that could not be written (a missing folder, a full disk).
    public var reporterErrors: [String] = []
    /// Cases run, and how each ended; counted as results arrive, whether or not they are kept.
    public private(set) var total = 0
    public private(set) var passed = 0
    public private(set) var failed = 0
    public private(set) var errors = 0
    /// Cases whose request reached no server (DNS, refused connection, TLS).
    public private(set) var unreachable = 0

    /// A report of exactly these results.
    public init(baseURL: String, results: [CaseResult], duration: Duration) {
        self.baseURL = baseURL
        self.results = []
        self.duration = duration
        for result in results { add(result, keeping: true) }
    }

    /// Counts `result`, and keeps it when asked or when it did not pass.
    mutating func add(_ result: CaseResult, keeping: Bool) {
        total += 1
        switch result.outcome {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        }
        if result.isUnreachable { unreachable += 1 }
        if keeping || result.outcome != .passed { results.append(result) }
    }

    /// 0 every case passed; 1 at least one drifted or broke; 3 no request reached a server.
    public var exitCode: Int32 {
        if total > 0 && unreachable == total { return 3 }
        return passed == total ? 0 : 1
    }
}
