import ContractJSON

/// Values built from the schemas of a contracts tree the way `contract fixtures` builds bodies, for
/// checks outside fixtures: the import proves that two `oneOf` branches overlap with a value both
/// accept. Seeded: the same schema and seed give the same value.
public struct SchemaSampler: Sendable {
    private let documents: [String: JSONDocument]
    private let identifiers: [String: String]

    /// - Parameter files: each file of the tree by its relative path (`schemas/pet.json`).
    public init(files: [String: JSONValue]) {
        documents = files.mapValues { JSONDocument(value: $0, source: SourceText([], indexLines: false), sourceMap: nil, duplicateKeys: []) }
        identifiers = BodySynthesizer.identifiers(in: documents)
    }

    /// A candidate value for `schema`, written in `file`; nil when none could be built. Not
    /// validated: the caller checks it against what it needs.
    public func sample(_ schema: JSONValue, in file: String, seed: String) -> JSONValue? {
        var synthesizer = BodySynthesizer(documents: documents, identifiers: identifiers, seed: seed)
        return synthesizer.value(for: schema, in: file)
    }
}
