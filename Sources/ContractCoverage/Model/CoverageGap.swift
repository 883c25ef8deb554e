/// What the gate can fail a run on (`--fail-on`), and each gap it found.
public enum CoverageFailOn: String, Sendable, Hashable, CaseIterable {
    /// A case the tests use that the server did not pass: it failed, got no response, or was not
    /// run. Needs `--usage` and `--verify-report`.
    case usedUnverified = "used-unverified"
    /// A request the tests sent that broke its contract or matched no fixture, not let through on
    /// purpose. Needs `--usage`.
    case invalidRequests = "invalid-requests"
    /// A document operation no contract covers. Needs `--openapi`.
    case uncoveredOperations = "uncovered-operations"
    /// A documented response of a covered operation no case expects. Needs `--openapi`.
    case uncoveredResponses = "uncovered-responses"

    /// What the check needs, said when it is missing.
    var needs: String {
        switch self {
        case .usedUnverified: "--usage and --verify-report"
        case .invalidRequests: "--usage"
        case .uncoveredOperations, .uncoveredResponses: "--openapi"
        }
    }
}

/// One reason the gate fails the run.
public struct CoverageGap: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case failOn(CoverageFailOn)
        /// The share of cases used is under `--min-used`.
        case usedShare
    }

    public var kind: Kind
    /// The case (`products.get/found`), the operation (`GET /pets`), or nil for a total.
    public var subject: String?
    /// Why, in one line: `used by 3 tests, failed verification: body /price: expected number, found string`.
    public var message: String

    public init(kind: Kind, subject: String?, message: String) {
        self.kind = kind
        self.subject = subject
        self.message = message
    }

    /// `used-unverified`, `min-used`.
    public var rule: String {
        switch kind {
        case .failOn(let check): check.rawValue
        case .usedShare: "min-used"
        }
    }

    public var description: String { subject.map { "\($0): \(message)" } ?? message }
}

/// The bounds of what coverage reads, each far beyond a real suite and said when reached.
public enum CoverageLimits {
    /// Usage files in one folder (one per test process).
    public static let maxUsageFiles = 100_000
    /// One usage file's bytes.
    public static let maxUsageFileBytes = 1 << 30
    /// All usage files' bytes together.
    public static let maxUsageBytes = 8 << 30
    /// The distinct ways a case's requests broke its contract kept for the report.
    public static let maxViolationsPerCase = 20
    /// Groups of unmatched requests kept (by method, path and nearest fixture).
    public static let maxUnmatchedGroups = 10_000
    /// Distinct cases the usage may name (a tree's own, and any it no longer has): 25 times the
    /// largest tree measured (40,000 cases); requests to cases past it are counted, not kept.
    public static let maxCasesNamed = 1_000_000
    /// Tests named per case or group in a report; the JSON report has every one.
    public static let maxTestsShown = 5
}
