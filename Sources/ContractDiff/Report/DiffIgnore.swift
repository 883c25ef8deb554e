import ContractFiles
import ContractJSON
import ContractModel

/// Changes a review has accepted: `contract diff --ignore FILE` sets them apart with the reason
/// given, so a pull request that breaks clients on purpose (a field retired after every client
/// moved on) passes once someone has written down why. Each entry names a change by its
/// ``Change/fingerprint``, which holds while the pull request is edited, and may end on a date,
/// after which the change counts again.
///
/// The file follows verify's baseline: JSON with one entry per line, sorted, keys sorted, so a
/// change to it reads well in review; every problem is a diagnostic placed in the file, and any
/// error makes the whole file unusable (a file read halfway would let a breaking change through
/// or fail a run for a change someone accepted).
public struct DiffIgnore: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        public var fingerprint: String
        /// Why the change is accepted; never empty.
        public var reason: String
        /// For people (the fingerprint is opaque): the rule and `contract/case`, never checked.
        public var rule: String?
        public var change: String?
        /// `YYYY-MM-DD`: the last day the entry holds.
        public var expires: String?

        public init(fingerprint: String, reason: String, rule: String? = nil, change: String? = nil, expires: String? = nil) {
            self.fingerprint = fingerprint
            self.reason = reason
            self.rule = rule
            self.change = change
            self.expires = expires
        }

        /// Expired once `today` (`YYYY-MM-DD`) is past its date; ISO dates compare as text.
        public func isExpired(today: String) -> Bool {
            expires.map { today > $0 } ?? false
        }

        /// The entry as its line in the file, to paste into `changes`.
        public var line: String { FingerprintList.line(fields) }

        /// The entry's line in the file, by key.
        var fields: [String: String] {
            var fields = ["fingerprint": fingerprint, "reason": reason]
            fields["rule"] = rule
            fields["change"] = change
            fields["expires"] = expires
            return fields
        }
    }

    public static let format = "contract-diff-ignore"
    public static let version = 1

    /// Sorted by change, then fingerprint.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted { ($0.change ?? "", $0.fingerprint) < ($1.change ?? "", $1.fingerprint) }
    }

    /// The file's text: a JSON object whose `changes` array has one entry per line.
    public var text: String {
        FingerprintList.text(entries.map(\.fields), format: Self.listFormat)
    }

    /// Sets the changes of the result apart: a change an entry names is ignored with the entry's
    /// reason, unless the entry has expired; `unused` are the fingerprints of entries no change
    /// met (the change they accepted is gone), in the file's order.
    /// - Parameter today: `YYYY-MM-DD`, in UTC.
    public func apply(to changes: [Change], today: String) -> (kept: [Change], ignored: [(change: Change, reason: String)], unused: [String]) {
        let byFingerprint = Dictionary(entries.map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first })
        var kept: [Change] = []
        var ignored: [(change: Change, reason: String)] = []
        var met: Set<String> = []
        for change in changes {
            let fingerprint = change.fingerprint
            guard let entry = byFingerprint[fingerprint] else {
                kept.append(change)
                continue
            }
            met.insert(fingerprint)
            if entry.isExpired(today: today) {
                kept.append(change)
            } else {
                ignored.append((change, entry.reason))
            }
        }
        return (kept, ignored, entries.filter { !met.contains($0.fingerprint) }.map(\.fingerprint))
    }

    /// The entries past their date, so a command can say why a change it used to ignore counts again.
    public func expiredEntries(today: String) -> [Entry] {
        entries.filter { $0.isExpired(today: today) }
    }

    /// Entries accepting `changes`, one per fingerprint, sorted: for a reviewer to accept what a
    /// diff found (paste their ``Entry/line``s, or write `DiffIgnore(entries:).text`).
    /// - Throws: a reason that says nothing, or an expiry that is not a date: the file would
    ///   refuse the entries.
    public static func entries(for changes: [Change], reason: String, expires: String? = nil) throws(DiagnosticsError) -> [Entry] {
        if let problem = problem(reason: reason) { throw DiagnosticsError([.argumentError("the reason \(problem)")]) }
        if let expires, !CalendarDay.isValid(expires) {
            throw DiagnosticsError([.argumentError("expected the expiry as a date YYYY-MM-DD, found '\(MessageText.clipped(expires))'")])
        }
        var seen: Set<String> = []
        let entries = changes.compactMap { change -> Entry? in
            guard seen.insert(change.fingerprint).inserted else { return nil }
            return Entry(fingerprint: change.fingerprint, reason: reason, rule: change.rule, change: change.name, expires: expires)
        }
        return DiffIgnore(entries: entries).entries
    }

    /// This file with `changes` accepted: their entries are written anew (accepting a change again
    /// renews an entry that expired, with today's reason), every other entry stays as written.
    public func accepting(_ changes: [Change], reason: String, expires: String? = nil) throws(DiagnosticsError) -> DiffIgnore {
        let added = try Self.entries(for: changes, reason: reason, expires: expires)
        let replaced = Set(added.map(\.fingerprint))
        return DiffIgnore(entries: entries.filter { !replaced.contains($0.fingerprint) } + added)
    }

    /// The most entries an ignore file may hold, and the largest file read: far beyond the changes
    /// a team accepts, as a baseline's limits are.
    public static let maxEntries = 100_000
    public static let maxFileBytes = 64 << 20

    /// What the file is, for its reader and writer (``FingerprintList``, verify's baseline's too).
    static let listFormat = FingerprintList.Format(
        name: format, listKey: "changes", entryKeys: ["fingerprint", "reason", "rule", "change", "expires"], requiredKeys: ["fingerprint", "reason"],
        missingMessages: ["reason": "expected 'reason': accepting a change needs a why (a ticket, who agreed, which clients moved on)"],
        fileName: "an ignore file", purpose: "an ignore file lists the changes a team accepted", maxEntries: maxEntries, maxFileBytes: maxFileBytes,
        shownMaxFileBytes: InputFile.describe(bytes: maxFileBytes))

    /// For a file refused by its size before it is read.
    public static var tooLargeMessage: String { listFormat.tooLargeMessage }

    /// Reads an ignore file; every problem is a diagnostic placed in it, and any error makes the
    /// whole file unusable. The file is bounded before it is read (``maxFileBytes``,
    /// ``maxEntries``), and reading is linear in it.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<DiffIgnore, DiagnosticsError> {
        let read = FingerprintList.read(bytes, file: file, format: listFormat) { fields in
            problem(reason: fields["reason"] ?? "").map { [(key: "reason", message: "'reason' \($0)")] } ?? []
        }
        return read.map { entries in
            DiffIgnore(entries: entries.map {
                Entry(fingerprint: $0.required("fingerprint"), reason: $0.required("reason"), rule: $0["rule"], change: $0["change"], expires: $0["expires"])
            })
        }
    }

    /// What is wrong with a reason, or nil: it must say something.
    private static func problem(reason: String) -> String? {
        reason.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? "is empty: accepting a change needs a why" : nil
    }

}
