import ContractFiles
import ContractJSON
import ContractModel

/// Findings a team knows about and accepts for now: `contract verify --baseline FILE` counts them
/// as known, so a nightly run fails only on new drift. Each entry names a finding by its
/// fingerprint (``Finding/fingerprint(contract:case:)``), with the case and a place for people,
/// and may give a reason and an expiry date, after which it counts as new again.
///
/// The file is JSON with one entry per line, sorted by case and fingerprint, so a change to it
/// reads well in a pull request (docs/baseline.md).
public struct Baseline: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        public var fingerprint: String
        /// `contract/case`.
        public var caseName: String
        /// For people: the rule, and the pointer or subject (fingerprints are opaque).
        public var rule: String?
        public var place: String?
        public var reason: String?
        /// `YYYY-MM-DD`: the last day the entry holds.
        public var expires: String?

        public init(fingerprint: String, caseName: String, rule: String? = nil, place: String? = nil, reason: String? = nil, expires: String? = nil) {
            self.fingerprint = fingerprint
            self.caseName = caseName
            self.rule = rule
            self.place = place
            self.reason = reason
            self.expires = expires
        }

        /// Expired once `today` (`YYYY-MM-DD`) is past its date; ISO dates compare as text.
        public func isExpired(today: String) -> Bool {
            expires.map { today > $0 } ?? false
        }
    }

    public static let format = "contract-verify-baseline"
    public static let version = 1

    /// Sorted by case, then fingerprint.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted { ($0.caseName, $0.fingerprint) < ($1.caseName, $1.fingerprint) }
    }

    /// The file's text: a JSON object whose `findings` array has one entry per line
    /// (``FingerprintList``, the writer of ignore files too).
    public var text: String {
        FingerprintList.text(entries.map(\.fields), format: Self.listFormat)
    }

    /// Entries a baseline may list: 100,000. A baseline lists the drift a team has accepted for
    /// now, tens or hundreds of findings; one past this is not a baseline anyone reviews, and
    /// every entry is read, checked and kept in memory by every run.
    public static let maxEntries = 100_000
    /// The largest baseline file read: 64 MiB, 100,000 entries of 670 bytes each (an entry with
    /// its case, rule, place and reason is about 150).
    public static let maxFileBytes = 64 << 20

    /// Reads the baseline file at `path`, refusing one larger than ``maxFileBytes`` before reading it.
    public static func read(path: String) -> Result<Baseline, DiagnosticsError> {
        switch InputFile.read(path, limit: maxFileBytes) {
        case .success(let bytes): return parse(bytes, file: path)
        case .failure(.tooLarge):
            return .failure(DiagnosticsError([.error(listFormat.tooLargeMessage, file: path)]))
        case .failure(let failure):
            return .failure(DiagnosticsError([.error("cannot read the baseline: \(InputFile.reason(failure))", file: path)]))
        }
    }

    /// Reads a baseline file; every problem is a diagnostic placed in it, and any error makes
    /// the whole file unusable (a baseline half read would turn known drift into new). The
    /// entries are counted before any is read, and each costs the same whatever the others are:
    /// reading is linear in the file (``FingerprintList``, the reader of ignore files too).
    public static func parse(_ bytes: [UInt8], file: String) -> Result<Baseline, DiagnosticsError> {
        FingerprintList.read(bytes, file: file, format: Self.listFormat).map { read in
            Baseline(entries: read.map {
                Entry(fingerprint: $0.required("fingerprint"), caseName: $0.required("case"), rule: $0["rule"], place: $0["where"], reason: $0["reason"], expires: $0["expires"])
            })
        }
    }

    /// What the file is, for its reader and writer.
    static let listFormat = FingerprintList.Format(
        name: format, listKey: "findings", entryKeys: ["fingerprint", "case", "rule", "where", "reason", "expires"], requiredKeys: ["fingerprint", "case"],
        fileName: "a baseline", purpose: "a baseline lists the drift a team accepts for now", maxEntries: maxEntries, maxFileBytes: maxFileBytes,
        shownMaxFileBytes: InputFile.describe(bytes: maxFileBytes))
}

extension Baseline.Entry {
    /// The entry's line in the file, by key.
    var fields: [String: String] {
        var fields = ["fingerprint": fingerprint, "case": caseName]
        fields["rule"] = rule
        fields["where"] = place
        fields["reason"] = reason
        fields["expires"] = expires
        return fields
    }
}
