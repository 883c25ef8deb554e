import ContractJSON

/// A JSON Schema (draft 2020-12 or draft 7) compiled once and applied to many instances, from
/// any number of threads.
///
/// ```swift
/// let schema = try JSONSchema(document, uri: "file:///schemas/product.json")
/// schema.isValid(instance)              // the verdict only, stops at the first failure
/// schema.validate(instance).errors      // every error, with instance and schema locations
/// ```
public struct JSONSchema: Sendable {
    private let root: SchemaNode
    /// Every node and keyword object of the compiled graph: keywords refer to them without
    /// reference counting (``Borrowed``), so this is what keeps them alive.
    private let graph: CompiledGraph
    /// Whether `format` is asserted (the default: a field documented as a UUID that is not one is
    /// drift) or only an annotation, as the standard has it.
    public let assertsFormats: Bool
    /// Whether some schema in the graph has a `$dynamicRef` that resolves through the dynamic
    /// scope; without one, validation does not keep that scope.
    private let tracksDynamicScope: Bool

    /// Compiles a schema document.
    /// - Parameters:
    ///   - uri: the URI the document is known by; relative references resolve against it (or its `$id`).
    ///   - registry: the other documents references may reach; nothing is fetched from the network.
    ///   - defaultDialect: the dialect of a schema without `$schema`.
    /// - Throws: ``SchemaCompilationError`` listing every unresolvable reference and invalid keyword.
    public init(
        _ document: JSONValue, uri: String = "urn:contract:schema", registry: SchemaRegistry = SchemaRegistry(),
        defaultDialect: SchemaDialect = .draft2020_12, assertsFormats: Bool = true
    ) throws(SchemaCompilationError) {
        var registry = registry
        registry.register(document, uri: uri)
        try self.init(compiling: URIReference(parsing: uri).withoutFragment.description, registry: registry, defaultDialect: defaultDialect,
            assertsFormats: assertsFormats)
    }

    /// Compiles the schema a registered URI names (a document, or `document#/pointer`, or an `$id`).
    public init(
        compiling uri: String, registry: SchemaRegistry, defaultDialect: SchemaDialect = .draft2020_12, assertsFormats: Bool = true
    ) throws(SchemaCompilationError) {
        let compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        let root = compiler.compileRoot(uri: uri)
        guard let root, compiler.problems.isEmpty else {
            throw SchemaCompilationError(problems: compiler.problems)
        }
        self.init(root: root, graph: CompiledGraph(compiler), assertsFormats: assertsFormats)
    }

    init(root: SchemaNode, graph: CompiledGraph, assertsFormats: Bool) {
        self.root = root
        self.graph = graph
        self.assertsFormats = assertsFormats
        tracksDynamicScope = graph.compiler.usesDynamicScope
    }

    /// Every error, or none when the instance is valid.
    public func validate(_ instance: JSONValue) -> ValidationResult {
        validate(JSONTape(instance))
    }

    /// The verdict alone, stopping at the first failure.
    public func isValid(_ instance: JSONValue) -> Bool {
        isValid(JSONTape(instance))
    }

    /// Every error for an instance already laid out as a tape (the fast form for many documents).
    public func validate(_ instance: JSONTape) -> ValidationResult {
        validate(instance, keepingAtMost: .max)
    }

    /// The first `limit` errors, in the order found, and how many there are in all
    /// (``ValidationResult/omitted``): for reports that show a bounded number.
    public func validate(_ instance: JSONTape, keepingAtMost limit: Int) -> ValidationResult {
        TapeView.with(instance) { doc in
            var evaluator = Evaluator(doc: doc, assertsFormats: assertsFormats, collecting: true, tracksDynamicScope: tracksDynamicScope)
            evaluator.limit = max(0, limit)
            var annotations: Annotations? = nil
            _ = evaluator.validate(root, 0, &annotations)
            return ValidationResult(errors: evaluator.errors, omitted: evaluator.total - evaluator.errors.count)
        }
    }

    /// The compiled root's identity: schemas with one identity are one compiled schema (a
    /// catalog hands out one for every place that refers to it), so what is worked out from one
    /// may be kept for the others.
    public var identity: ObjectIdentifier { ObjectIdentifier(root) }

    /// The verdict taken while a document's bytes are parsed (``StreamingValidator``), when every
    /// schema this one reaches is made of keywords that allow it; nil otherwise. Worked out anew at
    /// each call: keep the result for the documents to come.
    public func streamingValidator() -> StreamingValidator? {
        // With a dynamic scope kept (a `$dynamicRef` anywhere its compiler reached, even in a
        // schema this one never uses), the evaluator counts every reference it follows against
        // its depth limit, which the plan, reading through `$ref`-only schemas, does not.
        guard !tracksDynamicScope else { return nil }
        return StreamingValidator(self, root: root)
    }

    /// The verdict alone for an instance already laid out as a tape.
    public func isValid(_ instance: JSONTape) -> Bool {
        TapeView.with(instance) { doc in
            var evaluator = Evaluator(doc: doc, assertsFormats: assertsFormats, collecting: false, tracksDynamicScope: tracksDynamicScope)
            var annotations: Annotations? = nil
            return evaluator.validate(root, 0, &annotations)
        }
    }
}

/// Keeps a compiler's nodes and keyword objects alive for the schemas compiled from it. Nodes are
/// not changed once compiled; a ``SchemaCompilationSession`` that goes on compiling with the same
/// compiler only adds nodes, under its lock.
final class CompiledGraph: @unchecked Sendable {
    let compiler: SchemaCompiler

    init(_ compiler: SchemaCompiler) {
        self.compiler = compiler
    }
}

/// Why a schema could not be compiled: every problem found, each with its location.
public struct SchemaCompilationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [SchemaProblem]

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
