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

    /// The file's text: a JSON object whose `findings` array has one entry per line.
    public var text: String {
        let writer = CanonicalJSONWriter(style: .compact)
        let lines = entries.map { entry -> String in
            var members = [
                JSONObject.Member(key: "fingerprint", value: .string(entry.fingerprint)),
                JSONObject.Member(key: "case", value: .string(entry.caseName)),
            ]
            if let rule = entry.rule { members.append(.init(key: "rule", value: .string(rule))) }
            if let place = entry.place { members.append(.init(key: "where", value: .string(place))) }
            if let reason = entry.reason { members.append(.init(key: "reason", value: .string(reason))) }
            if let expires = entry.expires { members.append(.init(key: "expires", value: .string(expires))) }
            return "    " + writer.string(.object(JSONObject(members)))
        }
        let body = lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"format\": \"\(Self.format)\",\n  \"version\": \(Self.version),\n  \"findings\": \(body)\n}\n"
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
            return .failure(DiagnosticsError([.error(
                "expected a baseline of at most \(InputFile.describe(bytes: maxFileBytes)) (\(ResponseChecker.grouped(maxEntries)) entries at most); this file is larger", file: path)]))
        case .failure(let failure):
            return .failure(DiagnosticsError([.error("cannot read the baseline: \(InputFile.reason(failure))", file: path)]))
        }
    }

    /// Reads a baseline file; every problem is a diagnostic placed in it, and any error makes
    /// the whole file unusable (a baseline half read would turn known drift into new). The
    /// entries are counted before any is read, and each costs the same whatever the others are:
    /// reading is linear in the file.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<Baseline, DiagnosticsError> {
        guard bytes.count <= maxFileBytes else {
            return .failure(DiagnosticsError([.error(
                "expected a baseline of at most \(InputFile.describe(bytes: maxFileBytes)), found \(ResponseChecker.grouped(bytes.count)) bytes", file: file)]))
        }
        var document: TapeDocument
        switch TapeDocument.parse(bytes, file: file) {
        case .success(let parsed): document = parsed
        case .failure(let problems): return .failure(DiagnosticsError(problems.diagnostics))
        }
        let root = 0
        guard document.kind(root) == .object else {
            document.problem("expected an object with 'format', 'version' and 'findings'", at: .root, entry: root)
            return .failure(DiagnosticsError(document.problems))
        }
        let formatPointer = JSONPointer(tokens: ["format"])
        if let value = document.member("format", of: root) {
            if !document.equals(value, "contract-verify-baseline") { document.problem("expected 'format': '\(format)'", at: formatPointer, entry: value) }
        } else {
            document.problem("expected 'format': '\(format)'", at: formatPointer, entry: root)
        }
        let version = document.member("version", of: root)
        if version.map({ document.kind($0) != .number || document.number($0) != JSONNumber(Self.version) }) ?? true {
            document.problem("expected 'version': \(Self.version) (this contract reads version \(Self.version))", at: JSONPointer(tokens: ["version"]), entry: version ?? root)
        }
        let findingsPointer = JSONPointer(tokens: ["findings"])
        guard let items = document.member("findings", of: root), document.kind(items) == .array else {
            document.problem("expected 'findings': an array of entries", at: findingsPointer, entry: document.member("findings", of: root) ?? root)
            return .failure(DiagnosticsError(document.problems))
        }
        guard document.count(items) <= maxEntries else {
            document.problem(
                "expected at most \(ResponseChecker.grouped(maxEntries)) entries (a baseline lists the drift a team accepts for now), found \(ResponseChecker.grouped(document.count(items)))",
                at: findingsPointer, entry: items)
            return .failure(DiagnosticsError(document.problems))
        }
        var entries: [Entry] = []
        entries.reserveCapacity(document.count(items))
        var seen: Set<String> = []
        for (index, item) in document.elements(items).enumerated() {
            guard !document.isFull else { break }
            let at = JSONPointer(tokens: ["findings", String(index)])
            guard document.kind(item) == .object else {
                document.problem("expected an entry object", at: at, entry: item)
                continue
            }
            var fields: [String: String] = [:]
            var complete = true
            for member in document.members(item) {
                let key = document.string(member.key)
                guard Self.keys.contains(key) else {
                    document.problem("unknown key '\(MessageText.clipped(key, to: 40))'; an entry has fingerprint, case, rule, where, reason, expires", at: at.appending(key), entry: member.value)
                    complete = false
                    continue
                }
                guard document.kind(member.value) == .string else {
                    document.problem("expected '\(key)' to be a string", at: at.appending(key), entry: member.value)
                    complete = false
                    continue
                }
                fields[key] = document.string(member.value)
            }
            guard let fingerprint = fields["fingerprint"], let caseName = fields["case"] else {
                let absent = fields["fingerprint"] == nil && document.member("fingerprint", of: item) == nil ? "fingerprint"
                    : fields["case"] == nil && document.member("case", of: item) == nil ? "case" : nil
                if let absent { document.problem("expected '\(absent)'", at: at, entry: item) }
                continue
            }
            let fingerprintEntry = document.member("fingerprint", of: item) ?? item
            guard fingerprint.utf8.count == 16, fingerprint.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }) else {
                document.problem("expected a fingerprint of 16 lowercase hex digits, found '\(MessageText.clipped(fingerprint, to: 40))'", at: at.appending("fingerprint"), entry: fingerprintEntry)
                continue
            }
            let expires = fields["expires"]
            if let expires, !CalendarDay.isValid(expires) {
                document.problem("expected 'expires' as a date YYYY-MM-DD, found '\(MessageText.clipped(expires, to: 40))'", at: at.appending("expires"), entry: document.member("expires", of: item) ?? item)
            }
            if !seen.insert(fingerprint).inserted { document.problem("fingerprint \(fingerprint) is listed twice", at: at.appending("fingerprint"), entry: fingerprintEntry) }
            if complete {
                entries.append(Entry(fingerprint: fingerprint, caseName: caseName, rule: fields["rule"], place: fields["where"], reason: fields["reason"], expires: expires))
            }
        }
        guard !document.hasProblems else { return .failure(DiagnosticsError(document.problems)) }
        return .success(Baseline(entries: entries))
    }

    /// The keys of an entry.
    private static let keys: Set<String> = ["fingerprint", "case", "rule", "where", "reason", "expires"]

}

