import Foundation

/// Where a finding stands against the baseline: nil (on ``Finding/baseline``) is new.
public enum BaselineStatus: Sendable, Hashable {
    /// Listed and not expired: known drift.
    case known(Baseline.Entry)
    /// Listed, but its date has passed: counted as new, and reports say why.
    case expired(Baseline.Entry)
}

/// A run's findings against a baseline: each finding marked known or new as its case ends, and
/// at the end the entries no finding met, for the cases that ran: drift that was fixed.
struct BaselineCheck: Sendable {
    private let entries: [String: Baseline.Entry]
    private let today: String
    /// Entries whose case the contracts no longer have: that drift cannot occur again.
    private let gone: Set<String>

    /// - Parameters:
    ///   - today: `YYYY-MM-DD`, in UTC.
    ///   - cases: every case of the contracts tree, `contract/case`, selected or not.
    init(_ baseline: Baseline, today: String, cases: Set<String>) {
        entries = Dictionary(baseline.entries.map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first })
        self.today = today
        gone = Set(baseline.entries.filter { !cases.contains($0.caseName) }.map(\.fingerprint))
    }

    /// Marks every finding of `result`.
    func mark(_ result: inout CaseResult) {
        for index in result.findings.indices {
            let fingerprint = result.findings[index].fingerprint(contract: result.contractID, case: result.caseName)
            guard let entry = entries[fingerprint] else { continue }
            result.findings[index].baseline = entry.isExpired(today: today) ? .expired(entry) : .known(entry)
        }
    }

    /// Entries of cases that ran whose fingerprint no finding had, and entries of cases the
    /// contracts no longer have (a contract removed or a case renamed), which every shard lists.
    /// An entry of a case outside the run (another shard, another --id) is not fixed: nothing was
    /// seen either way.
    func fixed(ran cases: Set<String>, met: Set<String>) -> [Baseline.Entry] {
        entries.values.filter { (cases.contains($0.caseName) && !met.contains($0.fingerprint)) || gone.contains($0.fingerprint) }
            .sorted { ($0.caseName, $0.fingerprint) < ($1.caseName, $1.fingerprint) }
    }
}

/// When a run fails: on any finding, or only on findings the baseline does not know.
public enum FailOn: String, Sendable, CaseIterable {
    /// Exit 1 only for findings not in the baseline (without one, every finding is new): the
    /// default, so a nightly run with a baseline is red only for new drift.
    case new
    /// Exit 1 for any finding, known or not.
    case any
}
