import ContractRequests

/// The usage records of a whole suite summed as they are read, file after file, so memory grows
/// with the cases and tests named, not with the requests made.
public struct UsageTally: Sendable {
    struct CaseUse: Sendable {
        var requests = 0
        var invalid = 0
        var relaxed = 0
        var tests: Set<String> = []
        var violations: Set<String> = []
    }

    struct UnmatchedKey: Hashable, Sendable {
        var method: String
        var path: String
        var nearest: String?
    }

    struct UnmatchedUse: Sendable {
        var reason: String?
        var requests = 0
        var relaxed = 0
        var tests: Set<String> = []
    }

    private(set) var byCase: [String: CaseUse] = [:]
    private(set) var unmatched: [UnmatchedKey: UnmatchedUse] = [:]
    /// Unmatched requests past ``CoverageLimits/maxUnmatchedGroups`` groups: counted, not grouped.
    private(set) var unmatchedBeyondLimit = 0
    /// Requests to cases past ``maxCases`` distinct ones: counted, not kept (a tree has far fewer;
    /// only usage written over by something else names more).
    private(set) var casesBeyondLimit = 0
    private(set) var tests: Set<String> = []
    private(set) var requests = 0
    public private(set) var files = 0
    let maxCases: Int

    public init() {
        maxCases = CoverageLimits.maxCasesNamed
    }

    /// A tally with another bound on the cases it keeps, for tests of the bound.
    init(maxCases: Int) {
        self.maxCases = maxCases
    }

    /// Counts one more usage file; its records are added one by one.
    mutating func addFile() {
        files += 1
    }

    mutating func add(_ record: UsageRecord) {
        requests += 1
        if let test = record.test { tests.insert(test) }
        guard record.outcome != .unmatched, let id = record.caseID else {
            let key = UnmatchedKey(method: record.method, path: record.path, nearest: record.nearest)
            if unmatched[key] == nil, unmatched.count >= CoverageLimits.maxUnmatchedGroups {
                unmatchedBeyondLimit += 1
                return
            }
            unmatched[key, default: UnmatchedUse(reason: record.reason)].requests += 1
            if record.relaxed { unmatched[key]?.relaxed += 1 }
            if let test = record.test { unmatched[key]?.tests.insert(test) }
            return
        }
        if byCase[id] == nil, byCase.count >= maxCases {
            casesBeyondLimit += 1
            return
        }
        // Changed where the dictionary holds it: a copy taken out would share its sets, and the
        // first insert would copy each whole (every test before it, for each request).
        Self.count(record, into: &byCase[id, default: CaseUse()])
    }

    private static func count(_ record: UsageRecord, into use: inout CaseUse) {
        switch (record.outcome, record.relaxed) {
        case (.invalid, false): use.invalid += 1
        case (.invalid, true):
            use.relaxed += 1
            use.requests += 1
        default: use.requests += 1
        }
        // The tests a case serves are those its answer reached: an invalid request got a problem.
        if let test = record.test, record.outcome == .answered || record.relaxed { use.tests.insert(test) }
        if record.outcome == .invalid, !record.relaxed {
            for violation in record.violations where use.violations.count < CoverageLimits.maxViolationsPerCase {
                use.violations.insert("\(violation.place): \(violation.message) [\(violation.keyword)]")
            }
        }
    }
}
