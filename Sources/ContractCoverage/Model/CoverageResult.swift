/// What `contract coverage` found: every case of the tree with what the app's tests and the
/// server made of it, the requests no case answered, the document's operations, and the gaps the
/// gate was asked to fail on.
public struct CoverageResult: Sendable {
    /// Requests no fixture matched, grouped by method, path and the nearest fixture.
    public struct Unmatched: Sendable, Hashable {
        public var method: String
        public var path: String
        public var nearest: String?
        public var reason: String?
        public var requests: Int
        /// Of those, let through on purpose (`allowInvalidRequests()`).
        public var relaxed: Int
        public var tests: [String]

        public init(method: String, path: String, nearest: String?, reason: String?, requests: Int, relaxed: Int, tests: [String]) {
            self.method = method
            self.path = path
            self.nearest = nearest
            self.reason = reason
            self.requests = requests
            self.relaxed = relaxed
            self.tests = tests
        }

        /// Requests not let through on purpose: a defect of the app or a missing contract.
        public var unexpected: Int { requests - relaxed }
    }

    /// Where the figures come from, as given on the command line.
    public struct Sources: Sendable, Hashable {
        /// The usage folders, the files read in them, and the tests they name.
        public var usageFolders: [String] = []
        public var usageFiles = 0
        public var tests = 0
        public var requests = 0
        /// The verify reports (shards merged), and the server they ran against.
        public var verifyReports: [String] = []
        public var baseURL: String?
        /// The OpenAPI document.
        public var document: String?

        public init() {}

        public var hasUsage: Bool { !usageFolders.isEmpty }
        public var hasReport: Bool { !verifyReports.isEmpty }
        public var hasDocument: Bool { document != nil }
    }

    public var contractsDirectory: String
    public var sources: Sources
    /// Every case of the tree, in contract id order, each contract's cases in their file's order.
    public var cases: [CaseCoverage]
    public var unmatched: [Unmatched]
    /// Cases the usage names that the tree no longer has (fixtures older than the contracts), with
    /// their requests: `products.get/old` → 3.
    public var staleUsage: [String: Int]
    /// The document's operations, in its order; nil without `--openapi`.
    public var operations: [OperationCoverage]?
    /// Contracts on no operation of the document (an endpoint it does not have, or has under
    /// another method or path); empty without `--openapi`.
    public var contractsOffDocument: [String] = []
    /// What the gate fails the run on (empty when it passes or was not asked for).
    public var gaps: [CoverageGap]

    public init(
        contractsDirectory: String, sources: Sources, cases: [CaseCoverage], unmatched: [Unmatched] = [], staleUsage: [String: Int] = [:],
        operations: [OperationCoverage]? = nil, gaps: [CoverageGap] = []
    ) {
        self.contractsDirectory = contractsDirectory
        self.sources = sources
        self.cases = cases
        self.unmatched = unmatched
        self.staleUsage = staleUsage
        self.operations = operations
        self.gaps = gaps
    }

    public var totals: CoverageTotals { CoverageTotals(self) }

    /// 0 when the gate passes (or none was asked for), 1 when it found a gap.
    public var exitCode: Int32 { gaps.isEmpty ? 0 : 1 }
}

/// The figures a person reads first.
public struct CoverageTotals: Sendable, Hashable {
    public var contracts: Int
    public var cases: Int
    public var used: Int
    public var passed: Int
    public var failed: Int
    public var errors: Int
    public var notRun: Int
    /// Cases the tests use that the server passed, and those it did not (failed, no response, not run).
    public var usedAndPassed: Int
    public var usedNotPassed: Int
    public var invalidRequests: Int
    public var relaxedRequests: Int
    public var unmatchedRequests: Int
    public var operations: Int
    public var coveredOperations: Int
    public var responses: Int
    public var coveredResponses: Int

    init(_ result: CoverageResult) {
        contracts = Set(result.cases.map(\.contractID)).count
        cases = result.cases.count
        used = result.cases.count(where: \.isUsed)
        var counts = (passed: 0, failed: 0, errors: 0, notRun: 0, usedPassed: 0, usedNotPassed: 0)
        for row in result.cases {
            switch row.verification {
            case .passed?: counts.passed += 1
            case .failed?: counts.failed += 1
            case .error?: counts.errors += 1
            case .notRun?: counts.notRun += 1
            case nil: break
            }
            if row.isUsed, row.verification != nil {
                if row.passedVerification { counts.usedPassed += 1 } else { counts.usedNotPassed += 1 }
            }
        }
        (passed, failed, errors, notRun, usedAndPassed, usedNotPassed) = counts
        invalidRequests = result.cases.reduce(0) { $0 + ($1.usage?.invalid ?? 0) }
        relaxedRequests = result.cases.reduce(0) { $0 + ($1.usage?.relaxed ?? 0) } + result.unmatched.reduce(0) { $0 + $1.relaxed }
        unmatchedRequests = result.unmatched.reduce(0) { $0 + $1.unexpected }
        operations = result.operations?.count ?? 0
        coveredOperations = result.operations?.count(where: \.isCovered) ?? 0
        responses = result.operations?.reduce(0) { $0 + $1.responses.count } ?? 0
        coveredResponses = result.operations?.reduce(0) { $0 + $1.responses.count(where: \.isCovered) } ?? 0
    }

    /// `71%`: a share rounded down, so 99.6% never reads as all.
    public static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "-" : "\(part * 100 / whole)%"
    }
}
