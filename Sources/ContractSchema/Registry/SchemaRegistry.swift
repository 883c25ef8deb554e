import ContractJSON

/// The documents references may point to, by absolute URI: the bundled meta-schemas and whatever
/// the caller registers (the schema files of a contracts tree, test remotes). Nothing is ever
/// fetched from the network; a reference to a document not registered here is an error.
public struct SchemaRegistry: Sendable {
    var documents: [String: JSONValue] = [:]

    /// A registry holding the draft 2020-12 and draft 7 meta-schemas.
    public init() {
        for metaSchema in MetaSchemas.all {
            documents[metaSchema.uri] = metaSchema.document
        }
    }

    /// Registers a document under the URI it is retrieved by (its `$id`s are honoured too).
    /// - Parameter uri: an absolute URI such as `file:///schemas/product.json`; a fragment is ignored.
    public mutating func register(_ document: JSONValue, uri: String) {
        documents[URIReference(parsing: uri).withoutFragment.description] = document
    }

    public func document(at uri: String) -> JSONValue? {
        documents[uri]
    }
}
