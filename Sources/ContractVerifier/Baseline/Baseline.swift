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

    /// Reads a baseline file; every problem is a diagnostic placed in it, and any error makes
    /// the whole file unusable (a baseline half read would turn known drift into new).
    public static func parse(_ bytes: [UInt8], file: String) -> Result<Baseline, BaselineError> {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            return .failure(BaselineError([.error("not JSON: \(error.message)", file: file, location: error.location)]))
        }
        var problems: [Diagnostic] = []
        func problem(_ message: String, at pointer: JSONPointer) {
            problems.append(.error(message, file: file, location: document.nearestLocation(of: pointer), pointer: pointer))
        }
        guard case .object(let root) = document.value else {
            return .failure(BaselineError([.error("expected an object with 'format', 'version' and 'findings'", file: file, location: document.location(of: .root))]))
        }
        if root["format"] != .string(format) { problem("expected 'format': '\(format)'", at: JSONPointer(tokens: ["format"])) }
        if root["version"] != .number(JSONNumber(version)) { problem("expected 'version': \(version) (this contract reads version \(version))", at: JSONPointer(tokens: ["version"])) }
        guard case .array(let items)? = root["findings"] else {
            problem("expected 'findings': an array of entries", at: JSONPointer(tokens: ["findings"]))
            return .failure(BaselineError(problems))
        }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            let at = JSONPointer(tokens: ["findings", String(index)])
            guard case .object(let object) = item else {
                problem("expected an entry object", at: at)
                continue
            }
            func string(_ key: String, required: Bool = false) -> String? {
                switch object[key] {
                case .string(let text)?: return text
                case nil where !required: return nil
                case nil: problem("expected '\(key)'", at: at)
                default: problem("expected '\(key)' to be a string", at: at.appending(key))
                }
                return nil
            }
            for member in object.members where !["fingerprint", "case", "rule", "where", "reason", "expires"].contains(member.key) {
                problem("unknown key '\(member.key)'; an entry has fingerprint, case, rule, where, reason, expires", at: at.appending(member.key))
            }
            guard let fingerprint = string("fingerprint", required: true), let caseName = string("case", required: true) else { continue }
            guard fingerprint.count == 16, fingerprint.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                problem("expected a fingerprint of 16 lowercase hex digits, found '\(MessageText.clipped(fingerprint, to: 40))'", at: at.appending("fingerprint"))
                continue
            }
            let expires = string("expires")
            if let expires, !CalendarDay.isValid(expires) {
                problem("expected 'expires' as a date YYYY-MM-DD, found '\(MessageText.clipped(expires, to: 40))'", at: at.appending("expires"))
            }
            if !seen.insert(fingerprint).inserted { problem("fingerprint \(fingerprint) is listed twice", at: at.appending("fingerprint")) }
            entries.append(Entry(fingerprint: fingerprint, caseName: caseName, rule: string("rule"), place: string("where"), reason: string("reason"), expires: expires))
        }
        guard problems.isEmpty else { return .failure(BaselineError(problems)) }
        return .success(Baseline(entries: entries))
    }

}

/// Why a baseline file cannot be used.
public struct BaselineError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.rendered).joined(separator: "\n") }
}
