import ContractJSON

/// The identifiers of one registered schema document exactly as the compiler indexes them: every
/// resource (`$id`) and anchor (`$anchor`, `$dynamicAnchor`, a draft 7 plain-name `$id`), and the
/// base URI in force at any place. Tools that check references without compiling (`contract
/// lint`) use it so that they resolve `$ref` exactly as validation will.
public struct SchemaIdentifiers: Sendable {
    /// Each resource the document holds, by absolute URI without fragment: the document itself
    /// (under the URI it is registered at) and every subschema whose `$id` applies.
    public let resources: [String: JSONPointer]
    /// `resourceURI#name` to the schema declaring that anchor.
    public let anchors: [String: JSONPointer]

    /// Indexes the document registered at `uri`; empty when there is none.
    public init(document uri: String, registry: SchemaRegistry, defaultDialect: SchemaDialect = .draft2020_12) {
        let compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        compiler.indexDocument(uri)
        resources = compiler.resources.mapValues(\.pointer)
        anchors = compiler.anchors.mapValues(\.pointer)
    }

    /// The base URI `$ref`s of the schema object at `pointer` resolve against: the document's URI
    /// changed by every `$id` on the way from its root, the object's own included (the compiler's
    /// rule, so draft 7's `$id` beside `$ref` and plain-name `$id`s are ignored as it ignores them).
    public static func baseURI(
        at pointer: JSONPointer, in document: JSONValue, uri: String, registry: SchemaRegistry, defaultDialect: SchemaDialect = .draft2020_12
    ) -> URIReference {
        let compiler = SchemaCompiler(registry: registry, defaultDialect: defaultDialect)
        return compiler.scope(at: SchemaCompiler.Location(document: uri, pointer: pointer), document: document).base
    }

    /// Whether a schema declares any identifier (`$id`, `$anchor`, `$dynamicAnchor`, draft 4 `id`)
    /// outside values that are data; one that does not is a single resource at its own URI.
    public static func declaresIdentifiers(_ value: JSONValue) -> Bool {
        SchemaCompilationSession.declaresIdentifiers(value)
    }
}

extension SchemaRegistry {
    /// The URIs of every registered document, bundled meta-schemas included, sorted.
    public var uris: [String] {
        documents.keys.sorted()
    }
}
