import ContractModel

/// One contract case, and what the app's tests and the server made of it.
public struct CaseCoverage: Sendable, Hashable {
    /// How the tests used the case (present when usage was given).
    public struct Usage: Sendable, Hashable {
        /// Requests the case answered (valid ones, and invalid ones let through on purpose).
        public var requests: Int
        /// Requests its endpoint took that broke its contract, not let through on purpose.
        public var invalid: Int
        /// Requests that broke its contract, let through on purpose (`allowInvalidRequests`).
        public var relaxed: Int
        /// The tests whose requests it answered, sorted; a request whose test could not be told
        /// is not named, and a test whose request broke the contract got a problem, not the case.
        public var tests: [String]
        /// How the invalid requests broke the contract, each way once (`body /nme: unexpected
        /// property 'nme' [additionalProperties]`), sorted, at most ``CoverageLimits/maxViolationsPerCase``.
        public var violations: [String]

        public init(requests: Int = 0, invalid: Int = 0, relaxed: Int = 0, tests: [String] = [], violations: [String] = []) {
            self.requests = requests
            self.invalid = invalid
            self.relaxed = relaxed
            self.tests = tests
            self.violations = violations
        }

        public var isUsed: Bool { requests > 0 }
    }

    /// What the verify report says of the case (present when a report was given).
    public enum Verification: Sendable, Hashable {
        case passed
        /// Failed, with each finding as `kind /pointer: message` (`body /price: expected number, found string`).
        case failed([String])
        /// No response (a transport error), with what happened.
        case error(String)
        /// The case is not in the report: left out by `--id`, `--tag` or a shard not given.
        case notRun
    }

    public var contractID: String
    public var caseName: String
    public var method: String
    public var path: String
    /// The statuses the case expects (`200`, `2XX|404`).
    public var status: String
    /// The contract's file, relative to the tree.
    public var file: String
    public var usage: Usage?
    public var verification: Verification?

    public init(
        contractID: String, caseName: String, method: String, path: String, status: String, file: String, usage: Usage? = nil,
        verification: Verification? = nil
    ) {
        self.contractID = contractID
        self.caseName = caseName
        self.method = method
        self.path = path
        self.status = status
        self.file = file
        self.usage = usage
        self.verification = verification
    }

    /// `products.get/found`.
    public var id: String { "\(contractID)/\(caseName)" }

    public var isUsed: Bool { usage?.isUsed == true }

    public var passedVerification: Bool { verification == .passed }
}
