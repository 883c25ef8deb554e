import ContractJSON
import ContractSchema

/// Compiles the schemas a contracts tree writes, exactly as lint checks them: the tree's shared
/// schema files registered under `file:///<relative path>`, each inline schema a resource of its
/// own. Used wherever responses or bodies are validated (verify, fixtures).
public struct SchemaCatalog: Sendable {
    private let registry: SchemaRegistry
    private let relativePaths: [String: String]
    private let displayPaths: [String: String]
    public let assertsFormats: Bool

    public init(_ set: ContractSet, assertsFormats: Bool = true) {
        var registry = SchemaRegistry()
        for (path, document) in set.documents where SourceFile.isSchemaPath(path) {
            registry.register(document.value, uri: SchemaChecker.uri(file: path))
        }
        self.registry = registry
        relativePaths = set.relativePaths
        displayPaths = Dictionary(set.relativePaths.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.assertsFormats = assertsFormats
    }

    /// The compiled schema of `reference`, written in the contract file `file` (as in `Contract.file`).
    public func compile(_ reference: SchemaReference) throws(SchemaCompilationError) -> JSONSchema {
        let relative = relativePaths[reference.file] ?? reference.file
        var registry = self.registry
        let uri = SchemaChecker.uri(file: relative, pointer: reference.pointer)
        registry.register(reference.schema, uri: uri)
        return try JSONSchema(compiling: uri, registry: registry, assertsFormats: assertsFormats)
    }

    /// `contracts/schemas/product.json#/properties/price` for a validator's absolute location,
    /// so that a report names the file a person would open.
    public func display(_ absoluteLocation: String) -> String {
        SchemaChecker.display(absoluteLocation, displayPaths: displayPaths)
    }
}
