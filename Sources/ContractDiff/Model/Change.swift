/// One difference between two contract trees, classified for a client of the API: breaking (a
/// client that worked against OLD can fail against NEW), a warning (it may, and the trees cannot
/// tell), or safe. Placed in both trees and named by a stable ``fingerprint``, so a review can
/// accept it in an ignore file with a reason.
public struct Change: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
        case breaking
        case warning
        case safe

        public static func < (a: Severity, b: Severity) -> Bool {
            a.rank < b.rank
        }

        private var rank: Int {
            switch self {
            case .breaking: 0
            case .warning: 1
            case .safe: 2
            }
        }
    }

    /// One side of the change: what the tree says, and where.
    public struct Side: Sendable, Hashable {
        /// The value as a person reads it (`number`, `["a","b"]`, `200`); nil where the side has
        /// nothing (a property added has no old value).
        public var value: String?
        /// The file as shown (`contracts/schemas/product.json`, or `main:contracts/...` for a
        /// revision), and the line and column where the value is written, when known.
        public var file: String
        public var line: Int?
        public var column: Int?
        /// The JSON Pointer of the value in that file.
        public var pointer: String

        public init(value: String?, file: String, line: Int? = nil, column: Int? = nil, pointer: String) {
            self.value = value
            self.file = file
            self.line = line
            self.column = column
            self.pointer = pointer
        }

        /// `contracts/products/get.json:14:9`.
        public var location: String {
            guard let line else { return file }
            return "\(file):\(line):\(column ?? 1)"
        }
    }

    /// `response-type-changed`: the rule, listed in docs/diff-rules.md.
    public var rule: String
    public var severity: Severity
    public var contractID: String
    /// The case, for a change within one; nil for a change to the contract as a whole.
    public var caseName: String?
    /// What in the case changed: `response body /items/*/price`, `response header 'Location'`,
    /// `status`; stable across runs (array indices as `*`), part of the fingerprint.
    public var subject: String
    /// One line: what changed, from what to what, and why it matters.
    public var message: String
    public var old: Side?
    public var new: Side?
    /// The fixtures `contract fixtures` writes for the cases this change touches
    /// (`products.get/found.json`): the app's unit tests that use them see the change.
    public var fixtures: [String] = []

    public init(
        rule: String, severity: Severity, contractID: String, caseName: String?, subject: String, message: String, old: Side?, new: Side?,
        fixtures: [String] = []
    ) {
        self.rule = rule
        self.severity = severity
        self.contractID = contractID
        self.caseName = caseName
        self.subject = subject
        self.message = message
        self.old = old
        self.new = new
        self.fixtures = fixtures
    }

    /// `products.get/found`, or `products.get` for the contract as a whole.
    public var name: String { caseName.map { "\(contractID)/\($0)" } ?? contractID }
}
