/// One way a response differs from its contract, with enough to act on it: what was expected,
/// what came back, and for bodies where (JSON Pointer), which schema keyword, and the text around it.
public struct Finding: Sendable, Hashable {
    /// Which part of the exchange differs. A struct over a private enum, as swift-nio and
    /// Hummingbird do for their error codes, so a kind added later breaks no user's exhaustive
    /// `switch`: compare with `==` (`finding.kind == .body`).
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The names reports print (`content-type`), pinned by their golden files.
        enum Base: String, Sendable, Hashable, CaseIterable {
            case status
            case header
            case contentType = "content-type"
            case body
            case setup
            case transport
            case teardown
        }

        /// For switches inside this module, which may be exhaustive; users compare with `==`.
        let base: Base

        init(_ base: Base) {
            self.base = base
        }

        /// The status is not one the case accepts.
        public static let status = Kind(.status)
        /// A header is missing, differs, or came more than once.
        public static let header = Kind(.header)
        /// The `Content-Type` is not the one the case expects.
        public static let contentType = Kind(.contentType)
        /// The body does not match its schema, text condition or bytes.
        public static let body = Kind(.body)
        /// A setup step of the case failed, so its request was not sent.
        public static let setup = Kind(.setup)
        /// No usable response came back.
        public static let transport = Kind(.transport)
        /// A teardown step failed after the case; listed apart from the case's findings.
        public static let teardown = Kind(.teardown)

        /// What reports print for this kind: `status`, `header`, `content-type`, `body`, `setup`, `transport`, `teardown`.
        public var rawValue: String { base.rawValue }

        /// The kind whose printed name is `rawValue`, nil when no kind has it.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.init(base)
        }

        public var description: String { base.rawValue }
    }

    public var kind: Kind
    /// Which check found it, stable across runs and releases: `status`, `header.pattern`,
    /// `body.schema`, `setup.status`… (docs/verify-report.md lists them). With ``subject``, the
    /// pointer and the keyword, what a finding is: its ``fingerprint(contract:case:)``.
    public var rule: String?
    /// What the rule looked at, where a pointer does not say it: the header field (lowercased),
    /// the setup step, the repeated member name, the transport error's kind.
    public var subject: String?
    /// One line: `/data/3/price: expected number, found string '12,00'`.
    public var message: String
    /// For body findings: where in the response body.
    public var pointer: String?
    /// For schema findings: the keyword that failed and where it is written.
    public var keyword: String?
    public var schemaLocation: String?
    /// The schema object that holds the keyword, as compact JSON (clipped): what was expected.
    public var schemaExcerpt: String?
    /// A short excerpt of the body around the pointer.
    public var excerpt: String?
    /// With `--baseline`: the entry that lists this finding (known, or expired); nil is new.
    public var baseline: BaselineStatus?

    /// Known drift: listed in the baseline and not expired.
    public var isKnown: Bool {
        if case .known = baseline { return true }
        return false
    }

    public init(
        kind: Kind, rule: String? = nil, subject: String? = nil, message: String, pointer: String? = nil, keyword: String? = nil,
        schemaLocation: String? = nil, schemaExcerpt: String? = nil, excerpt: String? = nil
    ) {
        self.kind = kind
        self.rule = rule
        self.subject = subject
        self.message = message
        self.pointer = pointer
        self.keyword = keyword
        self.schemaLocation = schemaLocation
        self.schemaExcerpt = schemaExcerpt
        self.excerpt = excerpt
    }
}
