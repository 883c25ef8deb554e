import ContractJSON
import ContractModel
import ContractOpenAPI

/// One side of the diff as the comparers read it: the loaded tree, its `$ref` resolver, and how
/// a place in it is shown (the file as the command line named the tree, line and column).
struct TreeView: Sendable {
    let set: ContractSet
    let resolver: SchemaResolver
    /// For an imported document: places in the document rather than in generated files.
    let sources: ImportSources?
    /// Shown path by path relative to the tree.
    private let shownPaths: [String: String]
    private static let writer = CanonicalJSONWriter(style: .compact, sortsKeys: false)

    init(_ set: ContractSet, sources: ImportSources? = nil) {
        self.set = set
        self.sources = sources
        resolver = SchemaResolver(set)
        shownPaths = Dictionary(set.relativePaths.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// The contract's file relative to the tree.
    func relativePath(of contract: Contract) -> String {
        set.relativePaths[contract.file] ?? contract.file
    }

    /// A side of a change: `value` as written at `pointer` in the tree's file `relativeFile`.
    func side(_ value: String?, file relativeFile: String, pointer: JSONPointer) -> Change.Side {
        if let sources, let place = sources.place(ofFile: relativeFile, pointer: pointer) {
            return Change.Side(value: value, file: place.file, line: place.line, column: place.column, pointer: place.pointer.description)
        }
        let location = set.documents[relativeFile].flatMap { $0.location(of: pointer) ?? $0.nearestLocation(of: pointer) }
        return Change.Side(
            value: value, file: shownPaths[relativeFile] ?? relativeFile, line: location?.line, column: location?.column, pointer: pointer.description)
    }

    /// A side in a contract: `pointer` inside the contract's own file.
    func side(_ value: String?, in contract: Contract, at pointer: JSONPointer) -> Change.Side {
        side(value, file: relativePath(of: contract), pointer: pointer)
    }

    /// A value as a person reads it in a message: compact JSON as written, clipped.
    static func shown(_ value: JSONValue) -> String {
        MessageText.clipped(writer.string(value), to: 120)
    }
}
