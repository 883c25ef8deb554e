/// Why a command cannot act: every problem found, each placed where it is (a file, line, column
/// and JSON Pointer; no file for a problem of the command line). The one error type of every
/// command's stages: arguments, loading, planning, and reading a baseline, an ignore file or a
/// report. Errors of the layers below (``ContractFiles``' folder errors, transport errors) are
/// causes, turned into a diagnostic here by the stage that met them.
public struct DiagnosticsError: Error, Sendable, Hashable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(_ diagnostic: Diagnostic) {
        self.diagnostics = [diagnostic]
    }

    /// A problem with the command's arguments alone: `--shard must be 'i/n'…`.
    public init(argument message: String) {
        self.diagnostics = [.argumentError(message)]
    }

    /// The messages without their places, one a line: what a caller that shows no files compares.
    public var message: String { diagnostics.map(\.message).joined(separator: "\n") }

    /// One compiler-style line per problem (``Diagnostic/rendered``).
    public var description: String { diagnostics.map(\.rendered).joined(separator: "\n") }
}
