import ContractJSON

/// The contracts of a tree, with every parsed document (contracts and shared schemas) and the
/// diagnostics found while loading them, sorted by file and position.
public struct ContractSet: Sendable {
    public var contracts: [Contract]
    /// Parsed documents by path relative to the tree, for resolving schema references later.
    public var documents: [String: JSONDocument]
    public var diagnostics: [Diagnostic]
    /// Each file's path relative to the tree, by the path shown in diagnostics (`Contract.file`).
    public var relativePaths: [String: String] = [:]
    /// The tree's settings (`contract.json` at its root), defaults when it has none. Honoured by
    /// ``SchemaCatalog``, so every command that compiles the tree's schemas through one follows them.
    public var settings = TreeSettings()
    /// The ``TreeDigest`` of the files read, for commands that load through
    /// ``ContractLoader/loadValid(directory:)``; nil for a set loaded from files in memory.
    public var treeDigest: String?

    /// Drops every parsed contract document, keeping the shared schema files: once contracts are
    /// decoded, running them needs only those (inline schemas live in the model). A contract
    /// document with its source locations takes many times its file's size, so a large tree then
    /// runs in far less memory.
    public mutating func dropContractDocuments() {
        documents = documents.filter { SourceFile.isSchemaPath($0.key) }
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    public var errorCount: Int { diagnostics.count { $0.severity == .error } }
    public var warningCount: Int { diagnostics.count { $0.severity == .warning } }
}
