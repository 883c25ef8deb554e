import ContractModel

/// Why `contract diff` cannot compare: an argument names nothing it can read, a tree has errors,
/// or the ignore file is malformed. Each problem is a diagnostic placed where it is.
public struct DiffError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.printed).joined(separator: "\n") }
}
