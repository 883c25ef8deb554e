import ContractJSON

/// Turns schema documents into a graph of ``SchemaNode``s: finds every resource (`$id`) and
/// anchor, resolves references through the ``SchemaRegistry`` only, and records every problem
/// instead of stopping at the first. Compilation uses a work list, so deep or cyclic schemas
/// cannot exhaust the stack.
final class SchemaCompiler {
    /// A schema's place: the document's retrieval URI and a pointer into it.
    struct Location: Hashable {
        var document: String
        var pointer: JSONPointer
    }

    /// What a schema inherits from the schemas around it.
    struct Scope {
        var base: URIReference
        var dialect: DialectInfo
        var resource: SchemaResourceInfo
    }

    /// Grows when a ``SchemaCompilationSession`` registers another root's document.
    var registry: SchemaRegistry
    let defaultDialect: SchemaDialect
    var problems: [SchemaProblem] = []

    /// Resource URI (no fragment) to where the resource starts.
    var resources: [String: Location] = [:]
    /// `resourceURI#name` to the schema declaring `$anchor` or `$dynamicAnchor`.
    var anchors: [String: Location] = [:]
    /// Resource URI to its `$dynamicAnchor` names.
    var dynamicAnchorNames: [String: Set<String>] = [:]
    var indexedDocuments: Set<String> = []
    var resourceInfos: [String: SchemaResourceInfo] = [:]
    var nodes: [Location: SchemaNode] = [:]
    private var queue: [(node: SchemaNode, location: Location, value: JSONValue, scope: Scope)] = []
    /// Keyword objects referenced through ``Borrowed``: the compiled schema keeps them alive.
    var keepAlive: [any AnyObject & Sendable] = []
    /// Resources whose `$dynamicAnchor` nodes still have to be created.
    var resourcesNeedingAnchors: [SchemaResourceInfo] = []
    /// Whether any schema compiled so far has a `$dynamicRef` to a dynamic anchor: only then must
    /// validation keep the dynamic scope (the resources entered so far).
    var usesDynamicScope = false
    /// Documents a ``SchemaCompilationSession`` registered for its roots, and the one being
    /// compiled: a root reaches no other root's document, as if each were compiled alone.
    var sessionRoots: Set<String> = []
    var currentRoot: String?

    func isOtherRoot(_ document: String) -> Bool {
        document != currentRoot && sessionRoots.contains(document)
    }

    /// The nodes the compile in progress created. Nodes from earlier compiles of the same compiler
    /// never refer to these, so a cycle through a new node is made of new nodes only.
    private(set) var created: [(location: Location, node: SchemaNode)] = []

    init(registry: SchemaRegistry, defaultDialect: SchemaDialect) {
        self.registry = registry
        self.defaultDialect = defaultDialect
    }

    /// Compiles the schema at `uri` (a registered document, or a resource inside one) and everything it reaches.
    func compileRoot(uri: String) -> SchemaNode? {
        created.removeAll()
        let reference = URIReference(parsing: uri)
        guard let location = resolve(reference, from: Location(document: reference.withoutFragment.description, pointer: .root)) else {
            return nil
        }
        let root = node(at: location)
        drainQueue()
        reportInPlaceCycles()
        resolveReferenceChains()
        return root
    }

    /// Holds `object` for the compiled schema's lifetime and returns an uncounted reference to it.
    func borrow<Object: AnyObject & Sendable>(_ object: Object) -> Borrowed<Object> {
        keepAlive.append(object)
        return Borrowed(object)
    }

    func report(_ message: String, at location: Location, kind: SchemaProblem.Kind = .invalidKeyword) {
        problems.append(SchemaProblem(kind: kind, message: message, document: location.document, pointer: location.pointer))
    }

    /// The node for the schema at `location`, created (and queued for compilation) on first use.
    func node(at location: Location) -> SchemaNode? {
        if let existing = nodes[location] { return existing }
        guard let document = registry.document(at: location.document), let value = document[pointer: location.pointer]
        else {
            report("no schema at '\(location.document)\(location.pointer.uriFragment)'", at: location, kind: .unresolvableReference)
            return nil
        }
        let scope = self.scope(at: location, document: document)
        let node = SchemaNode(document: location.document, pointer: location.pointer, resource: scope.resource)
        nodes[location] = node
        created.append((location, node))
        queue.append((node, location, value, scope))
        return node
    }

    /// The node for a subschema of the schema being compiled.
    func subnode(_ location: Location) -> SchemaNode? {
        node(at: location)
    }

    func drainQueue() {
        while true {
            if let next = queue.popLast() {
                compile(next.node, value: next.value, at: next.location, scope: next.scope)
            } else if let resource = resourcesNeedingAnchors.popLast() {
                for name in (dynamicAnchorNames[resource.uri] ?? []).sorted() {
                    if let location = anchors[resource.uri + "#" + name], let node = node(at: location) {
                        resource.dynamicAnchors[name] = Borrowed(node)
                    }
                }
            } else {
                return
            }
        }
    }

    private func compile(_ node: SchemaNode, value: JSONValue, at location: Location, scope: Scope) {
        switch value {
        case .bool(let allowed):
            node.setBoolean(allowed)
        case .object(let object):
            let keywords = compileKeywords(object, at: location, scope: scope)
            node.needsAnnotations = keywords.contains {
                switch $0 {
                case .unevaluatedItems, .unevaluatedProperties: true
                default: false
                }
            }
            node.setKeywords(keywords)
        default:
            report("a schema must be an object or a boolean, found \(value.typeName)", at: location)
            node.setBoolean(true)
        }
    }
}
