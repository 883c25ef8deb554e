import ContractJSON
import ContractSchema

/// The shared schema files of a tree as the validator sees them, built the same way for lint,
/// verify, fixtures and the import: each file registered under `file:///<relative path>` and
/// under every URI the tree's settings publish it at (``TreeSettings/schemaURIs``), beside the
/// bundled meta-schemas. `$id`s need no registration: the compiler finds the resources a
/// registered document declares. Nothing is ever fetched from the network.
struct TreeSchemaFiles: Sendable {
    let registry: SchemaRegistry
    /// Every URI a shared schema file is registered under, to its path relative to the tree.
    let fileOfURI: [String: String]
    /// Each shared schema file's own URI: the first one the settings publish it at, else
    /// `file:///<relative path>`. Relative references in a file without `$id` resolve against it.
    let canonicalURI: [String: String]

    init(documents: [String: JSONDocument], settings: TreeSettings) {
        var registry = SchemaRegistry()
        var fileOfURI: [String: String] = [:]
        var canonicalURI: [String: String] = [:]
        for (path, document) in documents where SourceFile.isSchemaPath(path) {
            let uris = settings.publishedURIs(ofSchemaFile: path)
            for uri in [Self.uri(file: path)] + uris {
                registry.register(document.value, uri: uri)
                fileOfURI[uri] = path
            }
            canonicalURI[path] = uris.first ?? Self.uri(file: path)
        }
        self.registry = registry
        self.fileOfURI = fileOfURI
        self.canonicalURI = canonicalURI
    }

    /// The URI a schema file is registered under by its path: `file:///schemas/product.json`.
    static func uri(file: String) -> String { "file:///" + file }

    /// An inline schema is a resource of its own; the query keeps its URI apart from the contract
    /// file's while relative references still resolve from the contract's folder.
    static func uri(file: String, pointer: JSONPointer) -> String {
        pointer.isRoot ? uri(file: file) : uri(file: file) + "?schema=" + pointer.description
    }

    /// A registered document's URI back to the file and the pointer of the schema in it:
    /// `file:///products/get.json?schema=/cases/0/response/schema`, `file:///schemas/a.json`, or a
    /// URI the settings publish a file at. Nil for anything else (a bundled meta-schema).
    func fileAndPointer(_ uri: String) -> (file: String, pointer: JSONPointer)? {
        if let file = fileOfURI[uri] { return (file, .root) }
        guard uri.hasPrefix("file:///") else { return nil }
        let rest = uri.dropFirst("file:///".count)
        guard let query = rest.range(of: "?schema=") else { return (String(rest), .root) }
        let pointer = (try? JSONPointer(parsing: String(rest[query.upperBound...]))) ?? .root
        return (String(rest[..<query.lowerBound]), pointer)
    }

    /// An absolute keyword location as the user knows it: `contracts/schemas/product.json#/properties/price/type`.
    func display(_ location: String, displayPaths: [String: String]) -> String {
        let hash = location.firstIndex(of: "#") ?? location.endIndex
        guard let (file, base) = fileAndPointer(String(location[..<hash])) else { return location }
        let fragment = hash < location.endIndex ? String(location[location.index(after: hash)...]) : ""
        let inner = (try? JSONPointer(uriFragment: fragment)) ?? .root
        let pointer = JSONPointer(tokens: base.tokens + inner.tokens)
        return (displayPaths[file] ?? file) + (pointer.isRoot ? "" : pointer.uriFragment)
    }
}
