/// Contracts a command cannot act on: the directory cannot be read, or its contracts have errors.
/// Commands that run contracts (verify, fixtures) stop here, before anything is sent or written.
public struct InvalidContracts: Error, Sendable {
    /// The directory as the command was given it.
    public var directory: String
    /// The errors, sorted by file and position; one diagnostic without a file when the directory
    /// itself cannot be read.
    public var diagnostics: [Diagnostic]
    /// False when the directory cannot be read: there are no contracts to lint.
    public var directoryIsReadable: Bool
}

extension ContractLoader {
    /// The load stage of a command that acts on contracts: the tree at `directory`, when it has
    /// no error (warnings are lint's to show).
    public static func loadValid(directory: String) throws(InvalidContracts) -> ContractSet {
        let files: [SourceFile]
        do {
            files = try ContractSourceReader.read(directory: directory)
        } catch {
            throw InvalidContracts(directory: directory, diagnostics: [.argumentError(error.message)], directoryIsReadable: false)
        }
        var set = load(files: files, directory: directory)
        set.treeDigest = TreeDigest.of(files)
        guard !set.hasErrors else {
            throw InvalidContracts(directory: directory, diagnostics: set.diagnostics.filter { $0.severity == .error }, directoryIsReadable: true)
        }
        return set
    }
}
