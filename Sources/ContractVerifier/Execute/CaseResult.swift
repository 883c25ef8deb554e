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

/// Every case's result in plan order, and what the run as a whole means for a CI job.
public struct VerifyReport: Sendable {
    public var baseURL: String
    public var results: [CaseResult]
    public var duration: Duration
    /// Reports that could not be written (a missing folder, a full disk).
    public var reporterErrors: [String] = []

    // These read one field in place (`results[i].outcome`): iterating the results themselves
    // copies every result, a retain per field, which for a large run took longer than the summary.
    public var passed: Int { count(.passed) }
    public var failed: Int { count(.failed) }
    public var errors: Int { count(.error) }

    private func count(_ outcome: CaseResult.Outcome) -> Int {
        results.indices.count { results[$0].outcome == outcome }
    }

    /// 0 every case passed; 1 at least one drifted or broke; 3 no request reached a server.
    public var exitCode: Int32 {
        if !results.isEmpty && results.indices.allSatisfy({ results[$0].transportError?.isUnreachable == true }) { return 3 }
        return passed == results.count ? 0 : 1
    }
}
