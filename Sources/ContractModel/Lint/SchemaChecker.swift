import ContractJSON
import ContractSchema

/// Checks the schemas of a contracts tree with the validator: every schema against its
/// meta-schema, every `example` (and request `body`) against its schema. Schemas are compiled
/// through the ``SchemaCatalog`` that `contract verify` and `contract fixtures` use, so references
/// resolve exactly as they will there.
struct SchemaChecker {
    let documents: [String: JSONDocument]
    let displayPaths: [String: String]
    private let catalog: SchemaCatalog
    private(set) var diagnostics: [Diagnostic] = []
    /// Set when the reference checker already explained the tree's reference cycles with file paths.
    var cyclesReported = false
    private var metaSchemas: [SchemaDialect: JSONSchema] = [:]
    private var checkedDocuments: Set<String> = []
    /// The pointers of `diagnostics`, by the file as shown: the places the compiler already
    /// explained (a set made from every diagnostic at each check was quadratic in them).
    private var explainedPointers: [String: Set<JSONPointer>] = [:]

    init(documents: [String: JSONDocument], displayPaths: [String: String], catalog: SchemaCatalog) {
        self.documents = documents
        self.displayPaths = displayPaths
        self.catalog = catalog
    }

    /// Checks one schema written in a contract, and the values that must match it.
    /// - Parameter alternatives: for each example (by index), other readings of the same value
    ///   that pass as well (a parameter's text read as each type it could be); none by default.
    /// - Parameter sent: the values are request bodies, whose placeholders are filled in when
    ///   they are sent (``SentValue``); examples are what they say.
    mutating func check(
        _ schema: SchemaReference, relativePath: String, examples: [(value: JSONValue, pointer: JSONPointer, what: String)],
        alternatives: [[JSONValue]] = [], sent: Bool = false
    ) {
        // A schema that is only `{"$ref": "…"}` is valid against its meta-schema.
        let referenceOnly = SchemaCatalog.reference(in: schema.schema) != nil
        defer { if !referenceOnly { checkAgainstMetaSchema(schema.schema, file: relativePath, at: schema.pointer) } }
        let compiled: JSONSchema
        do {
            compiled = try catalog.compile(schema.schema, relativePath: relativePath, pointer: schema.pointer)
        } catch {
            for problem in error.problems { report(problem) }
            return
        }
        for (index, example) in examples.enumerated() {
            let known = sent ? SentValue(example.value) : nil
            let errors = compiled.validate(known?.value ?? example.value).errors
            if !errors.isEmpty, index < alternatives.count, alternatives[index].contains(where: { compiled.isValid($0) }) { continue }
            for error in errors.mostSpecific() where known?.hides(error) != true {
                let pointer = JSONPointer(tokens: example.pointer.tokens + error.instanceLocation.tokens)
                add("\(example.what) does not match its schema: \(error.message) (at \(display(error.absoluteKeywordLocation)))",
                    file: relativePath, pointer: pointer)
            }
        }
    }

    /// Checks the shared schema files: compiled together (which reports references and patterns
    /// that no contract reaches yet), then each against its meta-schema.
    mutating func checkSchemaFiles(_ relativePaths: [String]) {
        // Each file with the document it holds, so nothing is looked up twice.
        let files = relativePaths.filter { checkedDocuments.insert($0).inserted }.compactMap { file in documents[file].map { (file, $0) } }
        if case .failure(let error) = Result(catching: { () throws(SchemaCompilationError) in
            try catalog.compileFiles(files.map(\.0))
        }) {
            for problem in error.problems { report(problem) }
        }
        for (file, document) in files { checkAgainstMetaSchema(document.value, file: file, at: .root) }
    }

    private mutating func checkAgainstMetaSchema(_ schema: JSONValue, file: String, at pointer: JSONPointer) {
        let dialect = schema.objectValue?["$schema"]?.stringValue.flatMap(SchemaDialect.init(metaSchemaURI:)) ?? .draft2020_12
        guard let metaSchema = metaSchema(dialect) else { return }
        // The compiler's message for the same place is the more specific one, so it wins.
        let displayed = displayPaths[file] ?? file
        let explained = explainedPointers[displayed] ?? []
        for error in metaSchema.validate(schema).errors.mostSpecific() {
            let location = JSONPointer(tokens: pointer.tokens + error.instanceLocation.tokens)
            guard !explained.contains(location) else { continue }
            add("invalid schema: \(error.message)", file: file, pointer: location)
        }
    }

    private mutating func metaSchema(_ dialect: SchemaDialect) -> JSONSchema? {
        if let cached = metaSchemas[dialect] { return cached }
        let compiled = try? JSONSchema(compiling: dialect.rawValue, registry: SchemaRegistry(), defaultDialect: dialect)
        metaSchemas[dialect] = compiled
        return compiled
    }

    private mutating func report(_ problem: SchemaProblem) {
        if problem.kind == .referenceCycle && cyclesReported { return }
        guard let (file, base) = catalog.fileAndPointer(problem.document) else { return }
        add(problem.message, file: file, pointer: JSONPointer(tokens: base.tokens + problem.pointer.tokens))
    }

    private mutating func add(_ message: String, file: String, pointer: JSONPointer) {
        let document = documents[file]
        let location = document?.location(of: pointer) ?? document?.nearestLocation(of: pointer)
        let displayed = displayPaths[file] ?? file
        diagnostics.append(.error(message, file: displayed, location: location, pointer: pointer))
        explainedPointers[displayed, default: []].insert(pointer)
    }

    private func display(_ location: String) -> String {
        catalog.display(location)
    }
}
