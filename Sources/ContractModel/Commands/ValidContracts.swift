extension ContractLoader {
    /// The load stage of a command that acts on contracts (verify, fixtures): the tree at
    /// `directory`, when it has no error (warnings are lint's to show). Stops the command before
    /// anything is sent or written: one diagnostic without a file when the directory cannot be
    /// read, else every error, sorted by file and position.
    /// - Parameter checksSchemas: see ``load(files:directory:checksSchemas:)``.
    public static func loadValid(directory: String, checksSchemas: Bool = true) throws(DiagnosticsError) -> ContractSet {
        let files: [SourceFile]
        do {
            files = try ContractSourceReader.read(directory: directory)
        } catch {
            throw DiagnosticsError(argument: error.message)
        }
        // The digest first: the load stage lets go of each file's text once parsed.
        let treeDigest = TreeDigest.of(files)
        var set = load(files: consume files, directory: directory, checksSchemas: checksSchemas)
        set.treeDigest = treeDigest
        guard !set.hasErrors else { throw DiagnosticsError(set.diagnostics.filter { $0.severity == .error }) }
        return set
    }
}

extension CommandResult {
    /// A command stopped by contracts it cannot act on (``ContractLoader/loadValid(directory:)``):
    /// their errors, then what did not happen (`consequence`: "nothing was sent") and how to see
    /// the warnings too.
    public static func invalidContracts(_ error: DiagnosticsError, directory: String, consequence: String) -> CommandResult {
        let count = error.diagnostics.count
        // An unreadable directory has no contracts to lint: its one problem says it all.
        let inFiles = error.diagnostics.contains { $0.file != nil }
        return CommandResult(
            exitCode: 2, diagnostics: error.diagnostics,
            consequence: inFiles ? "\(count) error\(count == 1 ? "" : "s") in the contracts; \(consequence) (run 'contract lint \(directory)')" : nil)
    }
}
