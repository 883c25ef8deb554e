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
    ) -> Result<Outcome, BaselineError> {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            return .failure(BaselineError([.error("not JSON: \(error.message)", file: reportFile, location: error.location)]))
        }
        guard case .object(let root) = document.value, root["format"] == .string("contract-verify-report"),
            case .array(let cases)? = root["cases"]
        else {
            return .failure(BaselineError([.error(
                "expected a report of 'contract verify --report json=PATH' (format 'contract-verify-report')", file: reportFile,
                location: document.location(of: .root))]))
        }
        if let expires, !CalendarDay.isValid(expires) {
            return .failure(BaselineError([.error("--expires must be a date YYYY-MM-DD, found '\(expires)'", file: reportFile)]))
        }
        let previousEntries = Dictionary((previous?.entries ?? []).map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first })
        var ran: Set<String> = []
        var entries: [String: Baseline.Entry] = [:]
        var outcome = Outcome(baseline: Baseline(entries: []))
        for case .object(let testCase) in cases {
            guard case .string(let name)? = testCase["id"] else { continue }
            ran.insert(name)
            guard case .array(let findings)? = testCase["findings"] else { continue }
            for case .object(let finding) in findings {
                guard case .string(let fingerprint)? = finding["fingerprint"], entries[fingerprint] == nil else { continue }
                if var entry = previousEntries[fingerprint] {
                    // The place may read better now; what people wrote stays.
                    entry.rule = text(finding["rule"]) ?? entry.rule
                    entry.place = place(finding) ?? entry.place
                    entries[fingerprint] = entry
                    outcome.kept += 1
                } else {
                    entries[fingerprint] = Baseline.Entry(
                        fingerprint: fingerprint, caseName: name, rule: text(finding["rule"]), place: place(finding), reason: reason, expires: expires)
                    outcome.added += 1
                }
            }
        }
        // What the run listed as fixed: entries of cases it ran that nothing met, and entries of
        // cases the contracts no longer have, which no run will meet again.
        var fixed: Set<String> = []
        if case .array(let listed)? = root["fixed"] {
            for case .object(let entry) in listed { if let fingerprint = text(entry["fingerprint"]) { fixed.insert(fingerprint) } }
        }
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

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// For people: where the finding is (the pointer without indices, as the fingerprint reads
    /// it, and the keyword), or what it is about.
    private static func place(_ finding: JSONObject) -> String? {
        let pointer = text(finding["pointer"]).map { Finding.withoutIndices($0) }
        let parts = [pointer, text(finding["keyword"]), text(finding["subject"])].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
