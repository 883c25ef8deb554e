import ContractJSON
import Foundation

/// Compiles many schemas over one registry and shares what they have in common: a schema that
/// several roots reach (a component of an imported API, a shared schema file) is compiled once,
/// where compiling each root on its own compiled again everything it reaches, which grew with the
/// square of a tree whose schemas refer to one another. Safe to use from any thread.
///
/// Each root sees the registry it was created with plus itself, as a compile on its own does:
/// a root that declares identifiers (`$id`, `$anchor`, `$dynamicAnchor`, draft 7 `id`) is
/// compiled on its own, since identifiers are global to a compiler and two roots may declare the
/// same one; other roots can only be reached through their own URI. A compile that fails leaves
/// nothing behind (the session starts afresh), and its problems are those of a compile alone.
public final class SchemaCompilationSession: @unchecked Sendable {
    private let lock = NSLock()
    private let base: SchemaRegistry
    private let defaultDialect: SchemaDialect
    private let assertsFormats: Bool
    private var compiler: SchemaCompiler
    private var graph: CompiledGraph

    public init(registry: SchemaRegistry, defaultDialect: SchemaDialect = .draft2020_12, assertsFormats: Bool = true) {
        base = registry
        self.defaultDialect = defaultDialect
        self.assertsFormats = assertsFormats
        compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        graph = CompiledGraph(compiler)
    }

    /// Compiles the schema at `uri`, registering `document` there first when given (an inline
    /// schema the registry does not hold).
    public func compile(_ document: JSONValue? = nil, uri: String) throws(SchemaCompilationError) -> JSONSchema {
        let key = URIReference(parsing: uri).withoutFragment.description
        if let document, Self.declaresIdentifiers(document) { return try compileAlone(document, uri: uri) }
        lock.lock()
        defer { lock.unlock() }
        if let document {
            if compiler.registry.document(at: key) != document {
                // A document replaced after it was indexed would leave stale nodes: start afresh.
                if compiler.indexedDocuments.contains(key) { restart() }
                compiler.registry.register(document, uri: key)
            }
            compiler.sessionRoots.insert(key)
        }
        compiler.currentRoot = key
        if let root = compiler.compileRoot(uri: uri), compiler.problems.isEmpty {
            return JSONSchema(root: root, graph: graph, assertsFormats: assertsFormats)
        }
        // Nodes of a failed compile may be incomplete: none of them may serve a later root.
        restart()
        return try compileAlone(document, uri: uri)
    }

    /// The document registered at `uri` (no fragment): a shared file, or an inline schema this
    /// session compiled; nil for one compiled alone (it declares identifiers) or never seen.
    public func document(at uri: String) -> JSONValue? {
        lock.withLock { compiler.registry.document(at: uri) }
    }

    /// The base registry and `document` alone: what compiling it on its own sees.
    private func compileAlone(_ document: JSONValue?, uri: String) throws(SchemaCompilationError) -> JSONSchema {
        var registry = base
        if let document { registry.register(document, uri: uri) }
        return try JSONSchema(compiling: uri, registry: registry, defaultDialect: defaultDialect, assertsFormats: assertsFormats)
    }

    private func restart() {
        compiler = SchemaCompiler(registry: base, defaultDialect: defaultDialect)
        graph = CompiledGraph(compiler)
    }

    /// Whether a schema declares a name other schemas could resolve to it by. Values that are
    /// data, not schemas (`const`, `enum`, `examples`, `default`), are not looked into.
    static func declaresIdentifiers(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            object.members.contains { member in
                if ["const", "enum", "examples", "example", "default"].contains(member.key) { return false }
                return (["$id", "$anchor", "$dynamicAnchor", "id"].contains(member.key) && member.value.stringValue != nil)
                    || declaresIdentifiers(member.value)
            }
        case .array(let elements): elements.contains(where: declaresIdentifiers)
        default: false
        }
    }
}
