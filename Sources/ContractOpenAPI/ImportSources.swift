import ContractJSON
import ContractModel

/// Where the files of an import come from in the document: each contract from an operation, each
/// shared schema file from a schema. Tools that report on the imported tree (`contract diff` of
/// two documents) place what they find in the document a person edits, not in files that exist
/// only in memory.
public struct ImportSources: Sendable {
    /// A place in the document: the file (the document, or another file of a split one), line
    /// and column, and the JSON Pointer there.
    public struct Place: Sendable, Hashable {
        public var file: String
        public var line: Int?
        public var column: Int?
        public var pointer: JSONPointer
    }

    private let operations: [String: JSONPointer]
    /// For each contract file, its inline schemas' places in the document.
    private let inlineSchemas: [String: [JSONPointer: JSONPointer]]
    private let schemas: [String: JSONPointer]
    private let locate: @Sendable (JSONPointer) -> Place

    init(operations: [String: JSONPointer], inlineSchemas: [String: [JSONPointer: JSONPointer]], schemas: [String: JSONPointer], document: OpenAPIDocument) {
        self.operations = operations
        self.inlineSchemas = inlineSchemas
        self.schemas = schemas
        locate = { pointer in
            let place = document.place(of: pointer)
            return Place(file: place.file, line: place.location?.line, column: place.location?.column, pointer: place.pointer)
        }
    }

    /// An empty map, for a result made without a document.
    static let none = ImportSources(operations: [:], schemas: [:], locate: { Place(file: "", pointer: $0) })

    private init(operations: [String: JSONPointer], schemas: [String: JSONPointer], locate: @escaping @Sendable (JSONPointer) -> Place) {
        self.operations = operations
        inlineSchemas = [:]
        self.schemas = schemas
        self.locate = locate
    }

    /// Where `pointer` in the generated file `file` comes from: in a shared schema file, the
    /// same keyword of the schema it was converted from (schemas are copied keyword by keyword;
    /// a keyword the conversion rewrote is placed at its nearest ancestor); in a contract, the
    /// same keyword of a schema written inline in the operation, else the operation it was made
    /// from. Nil for a file the import did not make.
    public func place(ofFile file: String, pointer: JSONPointer) -> Place? {
        if let schema = schemas[file] { return locate(JSONPointer(tokens: schema.tokens + pointer.tokens)) }
        for (inContract, inDocument) in inlineSchemas[file] ?? [:] where pointer.tokens.starts(with: inContract.tokens) {
            return locate(JSONPointer(tokens: inDocument.tokens + pointer.tokens.dropFirst(inContract.tokens.count)))
        }
        if let operation = operations[file] { return locate(operation) }
        return nil
    }
}
