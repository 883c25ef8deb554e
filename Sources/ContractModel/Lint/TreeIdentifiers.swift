import ContractJSON
import ContractSchema

/// Where a schema resource starts: a registered document's URI and a pointer into it.
struct RegisteredPlace: Hashable {
    var document: String
    var pointer: JSONPointer
}

/// The identifiers of a tree's shared schema files, indexed by the validator's own rules
/// (``SchemaIdentifiers``): which document and place each resource URI (`$id`, the URI a file is
/// registered or published at) names, and the `$id`s declared at two places.
struct TreeIdentifiers {
    /// Resource URI (without fragment) to where it starts; the first declaration in URI order.
    private(set) var resources: [String: RegisteredPlace] = [:]
    /// Resource URIs declared again at another place of the tree: the first place and the other.
    private(set) var duplicates: [(uri: String, first: RegisteredPlace, second: RegisteredPlace)] = []
    private let files: TreeSchemaFiles
    /// The identifiers of each registered document, by its URI, indexed on first use.
    private var indexes: [String: SchemaIdentifiers] = [:]

    init(files: TreeSchemaFiles) {
        self.files = files
        for uri in files.fileOfURI.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let document = files.registry.document(at: uri) else { continue }
            // Most files declare nothing: they are one resource at their own URI.
            let declared = SchemaIdentifiers.declaresIdentifiers(document) ? (identifiers(ofDocument: uri)?.resources ?? [:]) : [uri: .root]
            for (resource, pointer) in declared.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                let place = RegisteredPlace(document: uri, pointer: pointer)
                if let first = resources[resource] {
                    if !samePlace(first, place) { duplicates.append((resource, first, place)) }
                } else {
                    resources[resource] = place
                }
            }
        }
    }

    /// The identifiers of the registered document at `uri` (a tree file or a bundled meta-schema).
    mutating func identifiers(ofDocument uri: String) -> SchemaIdentifiers? {
        if let known = indexes[uri] { return known }
        guard files.registry.document(at: uri) != nil else { return nil }
        let index = SchemaIdentifiers(document: uri, registry: files.registry)
        indexes[uri] = index
        return index
    }

    /// One file registered under two URIs holds the same resources twice: that is no conflict.
    private func samePlace(_ a: RegisteredPlace, _ b: RegisteredPlace) -> Bool {
        guard let first = files.fileAndPointer(a.document), let second = files.fileAndPointer(b.document) else { return a == b }
        return first.file == second.file && a.pointer == b.pointer
    }

    /// The absolute URIs the tree's shared files hold besides their paths: declared `$id`s and
    /// the URIs the settings publish files at.
    var declaredURIs: [String] {
        resources.keys.filter { !$0.hasPrefix("file:") }
    }
}

extension TreeIdentifiers {
    /// Up to three of `candidates` nearest to `uri`: those sharing the longest start with it, then
    /// by edit distance, so a typo in a long URI still finds its intended target quickly.
    static func nearest(to uri: String, among candidates: [String], count: Int = 3) -> [String] {
        let characters = Array(uri)
        func commonPrefix(_ other: String) -> Int {
            var length = 0
            for (a, b) in zip(characters, other) {
                guard a == b else { break }
                length += 1
            }
            return length
        }
        let shortlist = candidates.map { ($0, commonPrefix($0)) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(32)
        return shortlist.map { ($0.0, Suggestion.editDistance(uri, $0.0)) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(count).map(\.0)
    }
}
