/// What `contract diff` found: every change between the two trees, in a stable order (by
/// contract, case, severity, subject, rule), those an ignore file accepts set apart with its reason.
public struct DiffResult: Sendable {
    /// The two trees as the command line named them (`main:contracts`, `contracts`).
    public var old: String
    public var new: String
    /// Changes not ignored, breaking ones first within each case.
    public var changes: [Change]
    /// Changes an ignore entry accepts, with the entry's reason.
    public var ignored: [(change: Change, reason: String)]
    /// Ignore entries no change met (the change they accepted is gone, or was never there).
    public var unusedIgnores: [String]

    public init(old: String, new: String, changes: [Change], ignored: [(change: Change, reason: String)] = [], unusedIgnores: [String] = []) {
        self.old = old
        self.new = new
        self.changes = changes.sorted(by: Self.order)
        self.ignored = ignored
        self.unusedIgnores = unusedIgnores
    }

    public func count(_ severity: Change.Severity) -> Int {
        changes.count { $0.severity == severity }
    }

    /// 1 when a change at or above `failOn` is left, else 0.
    public func exitCode(failOn: Change.Severity) -> Int32 {
        changes.contains { $0.severity <= failOn } ? 1 : 0
    }

    static func order(_ a: Change, _ b: Change) -> Bool {
        (a.contractID, a.caseName ?? "", a.severity, a.subject, a.rule) < (b.contractID, b.caseName ?? "", b.severity, b.subject, b.rule)
    }
}
