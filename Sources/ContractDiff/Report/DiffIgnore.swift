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
        public var line: String {
            var members = [JSONObject.Member(key: "fingerprint", value: .string(fingerprint)), .init(key: "reason", value: .string(reason))]
            if let rule { members.append(.init(key: "rule", value: .string(rule))) }
            if let change { members.append(.init(key: "change", value: .string(change))) }
            if let expires { members.append(.init(key: "expires", value: .string(expires))) }
            return CanonicalJSONWriter(style: .compact).string(.object(JSONObject(members)))
        }
    }

    public static let format = "contract-diff-ignore"
    public static let version = 1
    private static let entryKeys = ["fingerprint", "reason", "rule", "change", "expires"]
    private static let fileKeys = ["format", "version", "changes"]

    /// Sorted by change, then fingerprint.
    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries.sorted { ($0.change ?? "", $0.fingerprint) < ($1.change ?? "", $1.fingerprint) }
    }

    /// The file's text: a JSON object whose `changes` array has one entry per line.
    public var text: String {
        let body = entries.isEmpty ? "[]" : "[\n" + entries.map { "    " + $0.line }.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"format\": \"\(Self.format)\",\n  \"version\": \(Self.version),\n  \"changes\": \(body)\n}\n"
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

    /// Reads an ignore file; every problem is a diagnostic placed in it, and any error makes the
    /// whole file unusable.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<DiffIgnore, DiagnosticsError> {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            return .failure(DiagnosticsError([.error("not JSON: \(error.message)", file: file, location: error.location)]))
        }
        var problems: [Diagnostic] = []
        func problem(_ message: String, at pointer: JSONPointer) {
            problems.append(.error(message, file: file, location: document.nearestLocation(of: pointer), pointer: pointer))
        }
        // The later value of a repeated key is the one read: a second `reason` or `expires`
        // hidden further along a line would change what the entry says.
        for duplicate in document.duplicateKeys {
            problems.append(.error("key '\(MessageText.oneLine(duplicate.key))' is repeated", file: file, location: duplicate.location, pointer: duplicate.pointer))
        }
        guard case .object(let root) = document.value else {
            return .failure(DiagnosticsError([.error(
                "expected an object with 'format', 'version' and 'changes'", file: file, location: document.location(of: .root))]))
        }
        for member in root.members where !fileKeys.contains(member.key) {
            problem("unknown key '\(MessageText.oneLine(member.key))'; an ignore file has format, version, changes", at: JSONPointer(tokens: [member.key]))
        }
        if root["format"] != .string(format) { problem("expected 'format': '\(format)'", at: JSONPointer(tokens: ["format"])) }
        if root["version"] != .number(JSONNumber(version)) {
            problem("expected 'version': \(version) (this contract reads version \(version))", at: JSONPointer(tokens: ["version"]))
        }
        guard case .array(let items)? = root["changes"] else {
            problem("expected 'changes': an array of entries", at: JSONPointer(tokens: ["changes"]))
            return .failure(DiagnosticsError(problems.sorted()))
        }
        guard items.count <= maxEntries else {
            problem(
                "expected at most \(ByteCount.grouped(maxEntries)) entries (an ignore file lists the changes a team accepted), found \(ByteCount.grouped(items.count))",
                at: JSONPointer(tokens: ["changes"]))
            return .failure(DiagnosticsError(problems.sorted()))
        }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let at = JSONPointer(tokens: ["changes", String(index)])
            guard case .object(let object) = item else {
                problem("expected an entry object", at: at)
                continue
            }
            for member in object.members where !entryKeys.contains(member.key) {
                problem("unknown key '\(MessageText.oneLine(member.key))'; an entry has \(entryKeys.joined(separator: ", "))", at: at.appending(member.key))
            }
            func string(_ key: String, required: Bool = false) -> String? {
                switch object[key] {
                case .string(let text)?: return text
                case nil where !required: return nil
                case nil: problem(missing(key), at: at)
                default: problem("expected '\(key)' to be a string", at: at.appending(key))
                }
                return nil
            }
            let fingerprint = string("fingerprint", required: true)
            let reason = string("reason", required: true)
            let rule = string("rule")
            let change = string("change")
            let expires = string("expires")
            if let fingerprint {
                if !isFingerprint(fingerprint) {
                    problem("expected a fingerprint of 16 lowercase hex digits, found '\(MessageText.clipped(fingerprint))'", at: at.appending("fingerprint"))
                } else if !seen.insert(fingerprint).inserted {
                    problem("fingerprint \(fingerprint) is listed twice", at: at.appending("fingerprint"))
                }
            }
            if let reason, let why = Self.problem(reason: reason) { problem("'reason' \(why)", at: at.appending("reason")) }
            if let expires, !CalendarDay.isValid(expires) {
                problem("expected 'expires' as a date YYYY-MM-DD, found '\(MessageText.clipped(expires))'", at: at.appending("expires"))
            }
            if let fingerprint, let reason {
                entries.append(Entry(fingerprint: fingerprint, reason: reason, rule: rule, change: change, expires: expires))
            }
        }
        guard problems.isEmpty else { return .failure(DiagnosticsError(problems.sorted())) }
        return .success(DiffIgnore(entries: entries))
    }

    private static func missing(_ key: String) -> String {
        key == "reason" ? "expected 'reason': accepting a change needs a why (a ticket, who agreed, which clients moved on)" : "expected '\(key)'"
    }

    /// What is wrong with a reason, or nil: it must say something.
    private static func problem(reason: String) -> String? {
        reason.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? "is empty: accepting a change needs a why" : nil
    }

    private static func isFingerprint(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

}
