/// What a run as a whole means for a CI job: how many cases ended which way, and the exit code.
/// Counted from the same events the reporters get.
public struct VerifySummary: Sendable {
    /// The server, as shown (user information masked).
    public var baseURL: String
    public var duration: Duration = .zero
    /// Reports that could not be written (a missing folder, a full disk).
    public var reporterErrors: [String] = []
    public private(set) var total = 0
    public private(set) var passed = 0
    public private(set) var failed = 0
    public private(set) var errors = 0
    /// Cases whose request reached no server (DNS, refused connection, TLS).
    public private(set) var unreachable = 0
    /// Cases that did not pass, answered `429 Too Many Requests` or `503 Service Unavailable` (their
    /// own request or a setup step's): a server refusing the load, which fewer requests at once may spare.
    public private(set) var refusedUnderLoad = 0
    /// Of those, the answers that said when to come back (`Retry-After`).
    public private(set) var refusedWithRetryAfter = 0
    /// Distinct findings (by fingerprint, per case) the baseline does not know, and those it does.
    /// Without a baseline every finding is new.
    public private(set) var newFindings = 0
    public private(set) var knownFindings = 0
    /// Baseline entries of cases that ran that no finding met: drift that was fixed.
    public var fixed: [Baseline.Entry] = []
    /// Whether the run had a baseline, and what fails it.
    public var hasBaseline = false
    public var failOn = FailOn.new
    /// What the run was (tree, whole plan, shard); nil for a summary made outside a plan.
    public var run: RunIdentity?

    public init(baseURL: String) {
        self.baseURL = baseURL
    }

    /// A summary of exactly these results.
    public init(baseURL: String, results: [CaseResult], duration: Duration) {
        self.baseURL = baseURL
        self.duration = duration
        for result in results { count(result) }
    }

    public mutating func count(_ result: CaseResult) {
        total += 1
        switch result.outcome.base {
        case .passed: passed += 1
        case .failed: failed += 1
        case .error: errors += 1
        }
        if result.isUnreachable { unreachable += 1 }
        // A case that expected the refusal (a rate limit's own case) says nothing of the load.
        if result.outcome != .passed, let response = result.response, response.status == 429 || response.status == 503 {
            refusedUnderLoad += 1
            if response.headers.contains(where: { $0.name.lowercased() == "retry-after" }) { refusedWithRetryAfter += 1 }
        }
        var seen: Set<String> = []
        for finding in result.findings where seen.insert(finding.fingerprint(contract: result.contractID, case: result.caseName)).inserted {
            if finding.isKnown { knownFindings += 1 } else { newFindings += 1 }
        }
    }

    /// 3 when no request reached a server, whatever the baseline says; else 1 when a finding
    /// fails the run (any with `--fail-on any`, a new one by default), else 0.
    public var exitCode: Int32 {
        if total > 0 && unreachable == total { return 3 }
        switch failOn {
        case .any: return passed == total ? 0 : 1
        case .new: return newFindings == 0 ? 0 : 1
        }
    }
}

/// A summary with every result in plan order, for callers that want the results in memory
/// (tests, tools built on the library); the command line streams them to its reporters instead.
public struct VerifyReport: Sendable {
    public var summary: VerifySummary
    public var results: [CaseResult]

    public init(summary: VerifySummary, results: [CaseResult]) {
        self.summary = summary
        self.results = results
    }

    /// A report of exactly these results.
    public init(baseURL: String, results: [CaseResult], duration: Duration) {
        self.init(summary: VerifySummary(baseURL: baseURL, results: results, duration: duration), results: results)
    }

    public var baseURL: String { summary.baseURL }
    public var duration: Duration { summary.duration }
    public var reporterErrors: [String] { summary.reporterErrors }
    public var total: Int { summary.total }
    public var passed: Int { summary.passed }
    public var failed: Int { summary.failed }
    public var errors: Int { summary.errors }
    public var unreachable: Int { summary.unreachable }
    public var exitCode: Int32 { summary.exitCode }
}
