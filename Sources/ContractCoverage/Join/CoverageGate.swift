/// `--fail-on` and `--min-used`: the gaps that fail the run (exit 1), each named.
public struct CoverageGate: Sendable, Hashable {
    public var failOn: Set<CoverageFailOn>
    /// The least share of cases the tests must use, in percent (0 to 100).
    public var minimumUsedPercent: Int?

    public init(failOn: Set<CoverageFailOn> = [], minimumUsedPercent: Int? = nil) {
        self.failOn = failOn
        self.minimumUsedPercent = minimumUsedPercent
    }

    func gaps(in result: CoverageResult) -> [CoverageGap] {
        var gaps: [CoverageGap] = []
        if failOn.contains(.usedUnverified) {
            for row in result.cases where row.isUsed && !row.passedVerification {
                gaps.append(CoverageGap(kind: .failOn(.usedUnverified), subject: row.id, message: "\(Self.usedBy(row)), \(Self.why(row.verification))"))
            }
        }
        if failOn.contains(.invalidRequests) {
            for row in result.cases {
                guard let usage = row.usage, usage.invalid > 0 else { continue }
                let first = usage.violations.first.map { ": \($0)" } ?? ""
                gaps.append(CoverageGap(
                    kind: .failOn(.invalidRequests), subject: row.id,
                    message: "\(usage.invalid) request\(usage.invalid == 1 ? "" : "s") broke its contract\(first)"))
            }
            for group in result.unmatched where group.unexpected > 0 {
                let nearest = group.nearest.map { " (nearest \($0)\(group.reason.map { ": \($0)" } ?? ""))" } ?? ""
                gaps.append(CoverageGap(
                    kind: .failOn(.invalidRequests), subject: "\(group.method) \(group.path)",
                    message: "\(group.unexpected) request\(group.unexpected == 1 ? "" : "s") matched no fixture\(nearest)"))
            }
        }
        for operation in result.operations ?? [] {
            if failOn.contains(.uncoveredOperations), !operation.isCovered {
                gaps.append(CoverageGap(
                    kind: .failOn(.uncoveredOperations), subject: operation.label,
                    message: "no contract covers it (\(operation.file):\(operation.line))"))
            }
            if failOn.contains(.uncoveredResponses), operation.isCovered {
                for response in operation.responses where !response.isCovered {
                    gaps.append(CoverageGap(
                        kind: .failOn(.uncoveredResponses), subject: "\(operation.label) \(response.key)",
                        message: "no case of \(operation.contracts.joined(separator: ", ")) expects it"))
                }
            }
        }
        if let minimum = minimumUsedPercent {
            let totals = result.totals
            // Compared in whole numbers: used/cases < minimum/100.
            if totals.used * 100 < minimum * totals.cases {
                gaps.append(CoverageGap(
                    kind: .usedShare, subject: nil,
                    message: "the tests use \(totals.used) of \(totals.cases) cases (\(CoverageTotals.percent(totals.used, of: totals.cases))), under --min-used \(minimum)%"))
            }
        }
        return gaps
    }

    /// `used by 3 tests (a, b, c)` or `used by 2 requests`.
    static func usedBy(_ row: CaseCoverage) -> String {
        guard let usage = row.usage else { return "" }
        let tests = usage.tests
        guard !tests.isEmpty else { return "used by \(usage.requests) request\(usage.requests == 1 ? "" : "s")" }
        let shown = tests.prefix(CoverageLimits.maxTestsShown).joined(separator: ", ")
        let more = tests.count > CoverageLimits.maxTestsShown ? ", and \(tests.count - CoverageLimits.maxTestsShown) more" : ""
        return "used by \(tests.count) test\(tests.count == 1 ? "" : "s") (\(shown)\(more))"
    }

    /// `failed verification: body /price: …`, `not run in the report`.
    static func why(_ verification: CaseCoverage.Verification?) -> String {
        switch verification {
        case .passed?: "passed"
        case .failed(let findings)?:
            "failed verification" + (findings.first.map { ": \($0)" } ?? "") + (findings.count > 1 ? " (and \(findings.count - 1) more)" : "")
        case .error(let what)?: "got \(what)"
        case .notRun?: "not run in the report"
        case nil: "no report"
        }
    }
}
