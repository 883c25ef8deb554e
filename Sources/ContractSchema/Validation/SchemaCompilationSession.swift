import ContractJSON
import Foundation

/// Compiles many schemas over one registry and shares what they have in common: a schema that
/// several roots reach (a component of an imported API, a shared schema file) is compiled once,
/// where compiling each root on its own compiled again everything it reaches, which grew with the
/// square of a tree whose schemas refer to one another. Safe to use from any thread.
///
/// A compile that fails leaves nothing behind: the session starts afresh, and the problems are
/// those a compile on its own reports.
public final class SchemaCompilationSession: @unchecked Sendable {
    private let lock = NSLock()
    private let defaultDialect: SchemaDialect
    private let assertsFormats: Bool
    private var compiler: SchemaCompiler
    private var graph: CompiledGraph

    public init(registry: SchemaRegistry, defaultDialect: SchemaDialect = .draft2020_12, assertsFormats: Bool = true) {
        self.defaultDialect = defaultDialect
        self.assertsFormats = assertsFormats
        compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        graph = CompiledGraph(compiler)
    }

    /// Compiles the schema at `uri`, registering `document` there first when given (an inline
    /// schema the registry does not hold yet).
    public func compile(_ document: JSONValue? = nil, uri: String) throws(SchemaCompilationError) -> JSONSchema {
        lock.lock()
        defer { lock.unlock() }
        if let document {
            let key = URIReference(parsing: uri).withoutFragment.description
            if compiler.registry.document(at: key) != document {
                // A document replaced after it was indexed would leave stale nodes: start afresh.
                if compiler.indexedDocuments.contains(key) { restart(with: compiler.registry) }
                compiler.registry.register(document, uri: key)
            }
        }
        if let root = compiler.compileRoot(uri: uri), compiler.problems.isEmpty {
            return JSONSchema(root: root, graph: graph, assertsFormats: assertsFormats)
        }
        // Nodes of a failed compile may be incomplete: none of them may serve a later root.
        let registry = compiler.registry
        restart(with: registry)
        return try JSONSchema(compiling: uri, registry: registry, defaultDialect: defaultDialect, assertsFormats: assertsFormats)
    }

    private func restart(with registry: SchemaRegistry) {
        compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        graph = CompiledGraph(compiler)
    }
}
