import ContractJSON
import ContractModel

/// `contract baseline REPORT --out FILE`: a baseline from a run's JSON report. Every finding of
/// the report is listed; what the previous baseline said of a finding still met (its reason, its
/// expiry) is kept; entries the report lists as fixed, and entries of cases it ran that no finding
/// met, are dropped; and entries of cases the report did not run (another shard) are kept as they were.
public enum BaselineUpdate {
    public struct Outcome: Sendable {
        public var baseline: Baseline
        public var added = 0
        public var kept = 0
        public var removed = 0
    }

    /// - Parameters:
    ///   - reason, expires: given to the entries added now.
    public static func make(
        report bytes: [UInt8], reportFile: String, previous: Baseline?, reason: String? = nil, expires: String? = nil
    ) -> Result<Outcome, DiagnosticsError> {
        if let expires, !CalendarDay.isValid(expires) {
            return .failure(DiagnosticsError([.error("--expires must be a date YYYY-MM-DD, found '\(expires)'", file: reportFile)]))
        }
        // The reader `contract merge` uses: a report with anything wrong in it is refused with
        // the place of each problem, never read in part (a finding skipped would be dropped
        // from the baseline, and come back as new drift).
        let report: ReportReader.Contents
        switch ReportReader.read(bytes, file: reportFile, requiresRun: false) {
        case .success(let contents): report = contents
        case .failure(let error): return .failure(error)
        }
        let previousEntries = Dictionary((previous?.entries ?? []).map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first })
        var ran: Set<String> = []
        var entries: [String: Baseline.Entry] = [:]
        var outcome = Outcome(baseline: Baseline(entries: []))
        for result in report.results {
            let name = result.name
            ran.insert(name)
            for finding in result.findings {
                let fingerprint = finding.fingerprint(contract: result.contractID, case: result.caseName)
                guard entries[fingerprint] == nil else { continue }
                if var entry = previousEntries[fingerprint] {
                    // The place may read better now; what people wrote stays.
                    entry.rule = finding.rule ?? entry.rule
                    entry.place = place(finding) ?? entry.place
                    entries[fingerprint] = entry
                    outcome.kept += 1
                } else {
                    entries[fingerprint] = Baseline.Entry(
                        fingerprint: fingerprint, caseName: name, rule: finding.rule, place: place(finding), reason: reason, expires: expires)
                    outcome.added += 1
                }
            }
        }
        guard entries.count <= Baseline.maxEntries else {
            return .failure(DiagnosticsError([.error(
                "lists \(ResponseChecker.grouped(entries.count)) distinct findings, more than a baseline holds (\(ResponseChecker.grouped(Baseline.maxEntries)))", file: reportFile)]))
        }
        // What the run listed as fixed: entries of cases it ran that nothing met, and entries of
        // cases the contracts no longer have, which no run will meet again.
        let fixed = Set(report.fixed.map(\.fingerprint))
        for entry in previous?.entries ?? [] where entries[entry.fingerprint] == nil {
            if ran.contains(entry.caseName) || fixed.contains(entry.fingerprint) {
                outcome.removed += 1
            } else {
                entries[entry.fingerprint] = entry
            }
        }
        outcome.baseline = Baseline(entries: Array(entries.values))
        return .success(outcome)
    }

    /// For people: where the finding is (the pointer without indices, as the fingerprint reads
    /// it, and the keyword), or what it is about.
    private static func place(_ finding: Finding) -> String? {
        let pointer = finding.pointer.map { Finding.withoutIndices($0) }
        let parts = [pointer, finding.keyword, finding.subject].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
