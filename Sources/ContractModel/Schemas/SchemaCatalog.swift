import ContractJSON
import ContractSchema
import Foundation

/// Compiles the schemas a contracts tree writes, the same way for lint, verify and fixtures: the
/// tree's shared schema files registered under `file:///<relative path>` (and under the URIs the
/// tree's settings publish them at), each inline schema a resource of its own, `$id`s honoured
/// as the specification has them; `format` asserted unless the tree's settings or the caller
/// turn that off.
public struct SchemaCatalog: Sendable {
    private let relativePaths: [String: String]
    private let displayPaths: [String: String]
    private let files: TreeSchemaFiles
    /// Whether `format` is asserted: only when both the tree's settings and the caller say so.
    public let assertsFormats: Bool
    private let referenceOnly = ReferenceOnlySchemas()
    /// Every compile of this catalog (and its copies) shares one session, so a shared schema
    /// file or component is compiled once however many schemas reach it.
    private let session: SchemaCompilationSession

    /// - Parameter assertsFormats: false turns format assertion off whatever the tree's settings
    ///   say (`contract verify --no-format-assertion`); true leaves the tree's setting in force.
    public init(_ set: ContractSet, assertsFormats: Bool = true) {
        let displayPaths = Dictionary(set.relativePaths.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.init(documents: set.documents, displayPaths: displayPaths, settings: set.settings, assertsFormats: assertsFormats)
    }

    /// - Parameter displayPaths: each file's path as diagnostics show it, by its relative path.
    init(documents: [String: JSONDocument], displayPaths: [String: String], settings: TreeSettings = TreeSettings(), assertsFormats: Bool = true) {
        self.init(files: TreeSchemaFiles(documents: documents, settings: settings), displayPaths: displayPaths,
            assertsFormats: assertsFormats && settings.formatAssertion)
    }

    init(files: TreeSchemaFiles, displayPaths: [String: String], assertsFormats: Bool) {
        self.files = files
        session = SchemaCompilationSession(registry: files.registry, assertsFormats: assertsFormats)
        self.displayPaths = displayPaths
        relativePaths = Dictionary(displayPaths.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.assertsFormats = assertsFormats
    }

    /// The URI a schema file is registered under: `file:///schemas/product.json`.
    static func uri(file: String) -> String { TreeSchemaFiles.uri(file: file) }

    /// An inline schema is a resource of its own; the query keeps its URI apart from the contract
    /// file's while relative references still resolve from the contract's folder.
    static func uri(file: String, pointer: JSONPointer) -> String {
        TreeSchemaFiles.uri(file: file, pointer: pointer)
    }

    /// The file and pointer of a registered document's URI (see ``TreeSchemaFiles/fileAndPointer(_:)``).
    func fileAndPointer(_ uri: String) -> (file: String, pointer: JSONPointer)? {
        files.fileAndPointer(uri)
    }

    /// The compiled schema of `reference`, written in the contract file `reference.file` (as in `Contract.file`).
    public func compile(_ reference: SchemaReference) throws(SchemaCompilationError) -> JSONSchema {
        try compile(reference.schema, relativePath: relativePaths[reference.file] ?? reference.file, pointer: reference.pointer)
    }

    /// The compiled schema written at `pointer` in the file `relativePath`. A schema that is only
    /// `{"$ref": "…"}` compiles to the same schema wherever one file writes it (its errors are all
    /// located in the schema it references), and large trees repeat one in every case, so those
    /// are compiled once. Failures are not kept: each place that writes a broken reference gets
    /// its own problems.
    func compile(_ schema: JSONValue, relativePath: String, pointer: JSONPointer) throws(SchemaCompilationError) -> JSONSchema {
        // Keyed by the schema the reference resolves to, so every contract that refers to
        // `schemas/product.json`, from whichever file, shares one compiled schema.
        let key = Self.reference(in: schema).map { referenceOnly.key(for: $0, in: relativePath) }
        if let key, let cached = referenceOnly[key] { return cached }
        let compiled = try session.compile(schema, uri: Self.uri(file: relativePath, pointer: pointer))
        if let key { referenceOnly[key] = compiled }
        return compiled
    }

    /// Shared schema files compiled together, once: compiling each file on its own compiled again
    /// everything it references, which grew with the square of the number of files that refer to
    /// one another (an imported API's components). Each problem is still located in its file.
    func compileFiles(_ relativePaths: [String]) throws(SchemaCompilationError) {
        guard !relativePaths.isEmpty else { return }
        // Each file under its own URI: a file the settings publish resolves its relative references as published.
        let references = relativePaths.sorted().map {
            JSONValue.object(JSONObject([JSONObject.Member(key: "$ref", value: .string(self.files.canonicalURI[$0] ?? Self.uri(file: $0)))]))
        }
        let all = JSONValue.object(JSONObject([JSONObject.Member(key: "allOf", value: .array(references))]))
        _ = try session.compile(all, uri: "file:///?schema-files")
    }

    /// The reference of a schema that is nothing but `{"$ref": "…"}`.
    static func reference(in schema: JSONValue) -> String? {
        guard let object = schema.objectValue, object.count == 1 else { return nil }
        return object["$ref"]?.stringValue
    }

    /// The schema object that holds the keyword at a validator's absolute keyword location
    /// (`…#/properties/price/type` gives `{"type": "number", "minimum": 0}`), for reports that
    /// show what was expected; nil when the location is not a JSON Pointer into a document this
    /// catalog compiled.
    public func schema(holdingKeywordAt absoluteLocation: String) -> JSONValue? {
        let hash = absoluteLocation.firstIndex(of: "#") ?? absoluteLocation.endIndex
        let uri = String(absoluteLocation[..<hash])
        let fragment = hash < absoluteLocation.endIndex ? String(absoluteLocation[absoluteLocation.index(after: hash)...]) : ""
        guard let document = session.document(at: uri), let pointer = try? JSONPointer(uriFragment: fragment), !pointer.tokens.isEmpty
        else { return nil }
        let holder = JSONPointer(tokens: Array(pointer.tokens.dropLast()))
        guard let schema = document[pointer: holder], schema.objectValue != nil else { return nil }
        return schema
    }

    /// `contracts/schemas/product.json#/properties/price` for a validator's absolute location,
    /// so that a report names the file a person would open.
    public func display(_ absoluteLocation: String) -> String {
        files.display(absoluteLocation, displayPaths: displayPaths)
    }
}

/// The reference-only schemas a catalog has compiled, shared by its copies and safe across threads.
private final class ReferenceOnlySchemas: @unchecked Sendable {
    private let lock = NSLock()
    private var schemas: [String: JSONSchema] = [:]
    /// Resolved reference by file and `$ref`: resolving one parses two URIs, for every case.
    private var keys: [String: String] = [:]

    func key(for reference: String, in relativePath: String) -> String {
        let written = relativePath + "\u{0}" + reference
        if let known = lock.withLock({ keys[written] }) { return known }
        let resolved = URIReference(parsing: SchemaCatalog.uri(file: relativePath)).resolving(reference).description
        lock.withLock { keys[written] = resolved }
        return resolved
    }

    subscript(key: String) -> JSONSchema? {
        get { lock.withLock { schemas[key] } }
        set { lock.withLock { schemas[key] = newValue } }
    }
}
