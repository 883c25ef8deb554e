/// Which case a request asks to be answered with, in its own `Prefer` header (RFC 7240), so a
/// client picks an answer without a test's set-up: `Prefer: case=missing`, or Prism's spellings,
/// `code=404` (the case answering that status) and `example=missing` (the case of that name).
public struct Preference: Sendable, Hashable {
    /// The case named (`case=` or `example=`).
    public var caseName: String?
    /// The status asked for (`code=`).
    public var status: Int?

    public init(caseName: String? = nil, status: Int? = nil) {
        self.caseName = caseName
        self.status = status
    }

    /// Whether a request that asks for a case answering `status` is answered by it even when it
    /// breaks its contract: a client that asks for a refusal (`Prefer: case=invalid`, a 4xx
    /// case) sends that case's bad request on purpose, as a test that calls
    /// `allowInvalidRequests(to:case:)` does. Its violations are still recorded.
    public func allowsInvalidRequest(answeredWith status: Int) -> Bool {
        !isEmpty && (400..<500).contains(status)
    }

    /// Whether it asks for anything.
    public var isEmpty: Bool { caseName == nil && status == nil }

    /// Reads every `Prefer` header's value (`code=404, example="missing"`); preferences it does
    /// not know (`return=minimal`, `respond-async`) are left to others. Nil when none is ours.
    public init?(headers values: [String]) {
        var preference = Preference()
        for value in values {
            for item in value.split(separator: ",") {
                // `name=value; parameter`: the parameters are not ours.
                let token = item.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let parts = token.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
                guard parts.count == 2 else { continue }
                let value = parts[1].count >= 2 && parts[1].hasPrefix("\"") && parts[1].hasSuffix("\"") ? String(parts[1].dropFirst().dropLast()) : parts[1]
                switch parts[0].lowercased() {
                case "case", "example": preference.caseName = value
                case "code": preference.status = Int(value)
                default: continue
                }
            }
        }
        guard !preference.isEmpty else { return nil }
        self = preference
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
