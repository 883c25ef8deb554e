import ContractHTTP
import ContractModel

/// A header field sent more than once with different values, where one value is all a client can
/// use: two `Content-Type` fields, two `Location` fields. Clients disagree on which they read (the
/// first, the last, both joined with ", "), and a header check that passes when any field matches
/// saw only one of them.
///
/// RFC 9110 §5.3: a sender MUST NOT send a field more than once unless its definition makes it a
/// comma-separated list (`#rule`). Checked are:
/// - the response fields HTTP defines as one value (``singletons``), and
/// - every field a case matches (`equals`, `pattern`, `present`), since the contract states what
///   its one value must be, unless the field is a list (``lists``): those are never flagged.
///
/// A matcher can say how often its field comes (`repeats`): `true` makes it a list, never flagged
/// (``expectsSeveral(_:)``); `false` makes it exactly one field, flagged even when a list field
/// repeats or the same value comes twice (``expectsOnce(_:)``).
///
/// The same value twice is not drift: a reader that picks one field reads the same value either
/// way, RFC 9110 §8.6 lets recipients accept repeated identical `Content-Length` fields, and some
/// proxies repeat a field as they pass it on. The exception is the CORS fields, which browsers
/// read joined (the Fetch standard's "get" joins repeats with ", "): `*` twice is `*, *`, which
/// the CORS check refuses, so any repeat of them is drift.
enum RepeatedHeaders {
    /// Lowercased name to the spelling shown and the definition that makes it one value.
    static let singletons: [String: (name: String, reference: String)] = {
        let fields: [(String, String)] = [
            // RFC 9110, HTTP Semantics: fields whose grammar is one value, not `#list`.
            ("Content-Type", "RFC 9110 §8.3"),
            ("Content-Length", "RFC 9110 §8.6"),
            ("Content-Location", "RFC 9110 §8.7"),
            ("Content-Range", "RFC 9110 §14.4"),
            ("Location", "RFC 9110 §10.2.2"),
            ("Retry-After", "RFC 9110 §10.2.3"),
            ("Date", "RFC 9110 §6.6.1"),
            ("Last-Modified", "RFC 9110 §8.8.2"),
            ("ETag", "RFC 9110 §8.8.3"),
            // RFC 9111, HTTP Caching.
            ("Age", "RFC 9111 §5.1"),
            ("Expires", "RFC 9111 §5.3"),
            // Others clients act on: one disposition (RFC 6266 §4); HSTS takes the first field only
            // (RFC 6797 §8.1); CORS fails on more than one origin or credentials value (Fetch).
            ("Content-Disposition", "RFC 6266 §4"),
            ("Strict-Transport-Security", "RFC 6797 §8.1"),
            ("Access-Control-Allow-Origin", "Fetch standard, CORS protocol"),
            ("Access-Control-Allow-Credentials", "Fetch standard, CORS protocol"),
            ("Access-Control-Max-Age", "Fetch standard, CORS protocol"),
        ]
        return Dictionary(uniqueKeysWithValues: fields.map { ($0.0.lowercased(), (name: $0.0, reference: $0.1)) })
    }()

    /// Singletons that browsers read joined, so that even the same value twice breaks them.
    static let readJoined: Set<String> = ["access-control-allow-origin", "access-control-allow-credentials", "access-control-max-age"]

    /// Fields that may come several times, as list elements (RFC 9110 §5.3, `#rule`) or as fields
    /// that cannot be joined (`Set-Cookie`, RFC 6265 §3): never flagged, even when a case matches them.
    /// `Content-Encoding` is one of them: two fields mean two codings applied in order (§8.4).
    static let lists: Set<String> = [
        "set-cookie", "accept-ranges", "allow", "authentication-info", "cache-control", "connection", "content-encoding",
        "content-language", "link", "proxy-authenticate", "trailer", "transfer-encoding", "upgrade", "vary", "via",
        "www-authenticate", "warning", "access-control-allow-headers", "access-control-allow-methods",
        "access-control-expose-headers", "content-security-policy", "content-security-policy-report-only", "preference-applied",
        "server-timing", "alt-svc", "accept-patch", "accept-post",
    ]

    /// Values shown per field before "and N more".
    static let maxShownValues = 5

    /// Whether a case's check of `expectation` expects the field to come several times
    /// (`"repeats": true`): then it is never reported as repeated, and its matcher passes when any
    /// of the values matches.
    static func expectsSeveral(_ expectation: HeaderExpectation) -> Bool {
        expectation.occurrences == .repeats
    }

    /// Whether the case says the field comes exactly once (`"repeats": false`): a second field is
    /// drift even with the same value, and even for a list field.
    static func expectsOnce(_ expectation: HeaderExpectation) -> Bool {
        expectation.occurrences == .once
    }

    /// The reason a finding gives for a field the contract says comes once.
    static let onceReason = "the contract says it comes once, 'repeats': false"

    /// Singletons in the order findings list them, with the reason a finding gives.
    private static let singletonCandidates: [(key: String, name: String, reason: String)] = singletons.sorted { $0.key < $1.key }.map { key, singleton in
        (key, singleton.name, "a single-value field, \(singleton.reference)")
    }

    /// One finding per field that came more than once with different values: singletons first,
    /// then the other fields the case matches, each in a fixed order. `clip` masks and cuts a
    /// value from the response.
    static func findings(in headers: HTTPHeaders, expected: [HeaderExpectation], clip: (String) -> String) -> [Finding] {
        guard headers.hasRepeatedNames else { return [] }
        var findings: [Finding] = []
        // A response has a dozen fields: each candidate is looked up by bytes, with no string built
        // for a field that is not one of them.
        for candidate in singletonCandidates {
            let matched = expected.first { $0.name.lowercased() == candidate.key && !isAbsent($0) }
            if let matched, expectsSeveral(matched) { continue }
            let once = matched.map(expectsOnce) ?? false
            let reason = once ? onceReason : candidate.reason
            if let finding = finding(headers.values(of: candidate.key), candidate.key, matched?.name ?? candidate.name, reason, once: once, clip) {
                findings.append(finding)
            }
        }
        for expectation in expected where !isAbsent(expectation) && !expectsSeveral(expectation) {
            let key = expectation.name.lowercased()
            let once = expectsOnce(expectation)
            guard singletons[key] == nil, once || !lists.contains(key) else { continue }
            let reason = once ? onceReason : "the contract checks its value"
            if let finding = finding(headers.values(of: key), key, expectation.name, reason, once: once, clip) {
                findings.append(finding)
            }
        }
        return findings
    }

    private static func isAbsent(_ expectation: HeaderExpectation) -> Bool {
        if case .absent = expectation.matcher { return true }
        return false
    }

    /// The finding for the `values` of one field, if they are drift: different values, or any
    /// repeat of a field read joined or said to come `once`.
    private static func finding(
        _ values: [String], _ key: String, _ name: String, _ reason: String, once: Bool = false, _ clip: (String) -> String
    ) -> Finding? {
        guard values.count > 1 else { return nil }
        let found: String
        var shown = values.prefix(maxShownValues).map { "'\(clip($0))'" }.joined(separator: ", ")
        if values.count > maxShownValues { shown += " and \(values.count - maxShownValues) more" }
        if Set(values).count > 1 {
            found = "found \(values.count) with different values: \(shown)"
        } else if readJoined.contains(key) {
            found = "found \(values.count) with the same value, which browsers read joined as '\(clip(values.joined(separator: ", ")))': \(shown)"
        } else if once {
            found = "found \(values.count) with the same value: \(shown)"
        } else {
            return nil
        }
        return Finding(kind: .header, rule: "header.repeated", subject: key, message: "expected one '\(name)' field (\(reason)), \(found)")
    }
}
