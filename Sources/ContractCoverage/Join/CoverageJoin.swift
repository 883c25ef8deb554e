import ContractModel
import ContractVerifier

/// The join at the heart of `contract coverage`, pure: each case of the tree with what the tests'
/// usage and the verify report say of it.
enum CoverageJoin {
    static func cases(_ contracts: [Contract], usage: UsageTally?, results: [CaseResult]?) -> [CaseCoverage] {
        var verified: [String: CaseCoverage.Verification] = [:]
        for result in results ?? [] { verified[result.name] = verification(of: result) }
        var rows: [CaseCoverage] = []
        for contract in contracts.sorted(by: { $0.id < $1.id }) {
            for testCase in contract.cases {
                var row = CaseCoverage(
                    contractID: contract.id, caseName: testCase.name, method: contract.endpoint.method.rawValue,
                    path: contract.endpoint.path.description, status: testCase.response.status.description, file: contract.file)
                if let usage {
                    let use = usage.byCase[row.id]
                    row.usage = CaseCoverage.Usage(
                        requests: use?.requests ?? 0, invalid: use?.invalid ?? 0, relaxed: use?.relaxed ?? 0, tests: (use?.tests ?? []).sorted(),
                        violations: (use?.violations ?? []).sorted())
                }
                if results != nil { row.verification = verified[row.id] ?? .notRun }
                rows.append(row)
            }
        }
        return rows
    }

    /// Usage of cases the tree does not have: fixtures made from older contracts.
    static func staleUsage(_ usage: UsageTally, cases: [CaseCoverage]) -> [String: Int] {
        let known = Set(cases.map(\.id))
        return usage.byCase.filter { !known.contains($0.key) }.mapValues { $0.requests + $0.invalid }
    }

    static func unmatched(_ usage: UsageTally) -> [CoverageResult.Unmatched] {
        usage.unmatched.map { key, use in
            CoverageResult.Unmatched(
                method: key.method, path: key.path, nearest: key.nearest, reason: use.reason, requests: use.requests, relaxed: use.relaxed,
                tests: use.tests.sorted())
        }
        // Groups of one method and path differ in their nearest fixture: it orders them too, or
        // they would come in the dictionary's order, which changes from run to run.
        .sorted { ($0.unexpected, $1.method, $1.path, $1.nearest ?? "") > ($1.unexpected, $0.method, $0.path, $0.nearest ?? "") }
    }

    static func verification(of result: CaseResult) -> CaseCoverage.Verification {
        switch result.outcome {
        case .passed: return .passed
        case .failed: return .failed(result.findings.map(findingLine))
        default: return .error(result.transportError.map { "no response (\($0.kind.rawValue)): \($0.detail)" } ?? "no response")
        }
    }

    /// `body: /price: expected number, found string`: a finding as verify's console prints it
    /// (its message names the place: the pointer, the header).
    static func findingLine(_ finding: Finding) -> String {
        "\(finding.kind.rawValue): \(finding.message)"
    }
}
