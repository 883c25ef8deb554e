import ContractJSON

/// The load stage: parse every file, decode the contracts, check what spans files (unique ids,
/// schema references). Pure: it works on files already read, so tests need no disk.
public enum ContractLoader {
    /// Reads and loads the tree at `directory`; throws only when the directory cannot be listed.
    /// - Parameter keepsCaseTrees: false keeps of each case's part of its document only its
    ///   schemas (``CaseStream``), for a command that reads cases from the model alone (`contract
    ///   lint`); true keeps the documents whole.
    public static func load(directory: String, keepsCaseTrees: Bool = true) throws(ContractSourceReader.ReadError) -> ContractSet {
        // Handed over, not copied: the load stage lets go of each file's text once it is parsed.
        load(
            files: try ContractSourceReader.read(directory: directory), directory: directory,
            rereading: ContractSourceReader.rereader(directory: directory), keepsCaseTrees: keepsCaseTrees)
    }

    /// Loads files already in memory; `directory` names the tree in the "no contracts" diagnostic.
    /// - Parameter checksSchemas: false leaves out the check of schemas against their meta-schemas
    ///   and of examples and bodies against their schemas (most of the stage's work), for a
    ///   command that reads what cases there are and never validates with them (`contract
    ///   coverage`); lint, verify and fixtures check them.
    ///
    /// Each file's text is let go as it is parsed: its document keeps only where its lines end
    /// (`JSONParser.parse(taking:)`), which places every diagnostic as the text would, and the
    /// pages the parse has read past are given back before it ends.
    /// A large contract's text was as large again as its decoded model, kept to the end of the
    /// stage for lines and columns alone; it is freed when the caller hands `files` over
    /// (`load(files: consume files, …)`) rather than keeping them.
    /// - Parameter rereading: reads a file again by its relative path, at most the size it had,
    ///   for files that are still on disk (``load(directory:)``): their documents are then parsed without places, which are
    ///   made from the file read again only if a diagnostic asks for one (``RereadPlaces``).
    ///   Without it, each document keeps its places from the start.
    /// - Parameter keepsCaseTrees: see ``load(directory:keepsCaseTrees:)``; only with `rereading`.
    public static func load(
        files handedOver: consuming [SourceFile], directory: String, checksSchemas: Bool = true,
        rereading: (@Sendable (_ relativePath: String, _ size: Int) -> [UInt8]?)? = nil, keepsCaseTrees: Bool = true
    ) -> ContractSet {
        // Moved, not copied (a consuming parameter is never copied implicitly): an ordinary
        // array from here, whose files' texts are let go one by one below.
        var files = handedOver
        var diagnostics: [Diagnostic] = []
        var documents: [String: JSONDocument] = [:]
        var displayPaths: [String: String] = [:]
        var settings = TreeSettings()
        var settingsDocument: JSONDocument?
        // Contracts whose cases were decoded as they were parsed, with what their decoding found.
        var streams: [String: CaseStream] = [:]
        // Every file whose places are made from it read again, to say so of one that changed.
        var rereadPlaces: [(path: String, places: RereadPlaces)] = []
        for index in files.indices {
            // No later step reads the text: the document's line index stands in for it. Moved out,
            // so the parse holds the only reference and can give its pages back as it goes.
            var text: [UInt8] = []
            swap(&text, &files[index].bytes)
            let file = files[index]
            displayPaths[file.relativePath] = file.path
            if let readError = file.readError {
                diagnostics.append(.error(readError, file: file.path))
                continue
            }
            do {
                let streamsCases = !keepsCaseTrees && !file.isTreeSettings && !file.isSchemaDocument
                let (document, stream) = try parse(
                    taking: &text, of: file, rereading: rereading, streamsCases: streamsCases, rereadPlaces: &rereadPlaces)
                if let stream { streams[file.relativePath] = stream }
                if file.isTreeSettings {
                    // Settings, not a contract: decoded here and kept out of the documents.
                    var decoder = DocumentDecoder(file: file.path, document: document)
                    settings = decoder.decodeSettings()
                    diagnostics += decoder.diagnostics
                    settingsDocument = document
                } else {
                    documents[file.relativePath] = document
                }
            } catch {
                diagnostics.append(.error(error.message, file: file.path, location: error.location))
            }
        }
        if let settingsFile = files.first(where: \.isTreeSettings), let settingsDocument {
            for entry in settings.schemaURIs where !files.contains(where: { $0.isSchemaDocument && $0.relativePath.hasPrefix(entry.folder + "/") }) {
                let pointer = JSONPointer(tokens: ["schemaURIs", entry.key])
                diagnostics.append(.warning(
                    "no shared schema file is in '\(entry.folder)', which 'schemaURIs' publishes at '\(entry.uri)'", file: settingsFile.path,
                    location: settingsDocument.keyLocation(of: pointer) ?? settingsDocument.nearestLocation(of: pointer), pointer: pointer))
            }
        }
        let schemaFiles = TreeSchemaFiles(documents: documents, settings: settings)

        var contracts: [Contract] = []
        // A scope of its own: the reference checker's tables (every reference resolved, by place)
        // are let go before the schemas are compiled and checked, the stage's peak.
        do {
            var idLocations: [String: (file: String, relativePath: String)] = [:]
            // Ids that differ only in case are one fixture folder where the file system ignores case.
            var foldedIDs: [String: (id: String, file: String, relativePath: String)] = [:]
            var checker = ReferenceChecker(documents: documents, displayPaths: displayPaths, files: schemaFiles)
            var cleanReferences: Set<String> = []
            for file in files where !file.isSchemaDocument && !file.isTreeSettings {
                guard let document = documents[file.relativePath] else { continue }
                let streamed = streams.removeValue(forKey: file.relativePath)?.finished(with: document)
                var decoder = streamed?.decoder ?? DocumentDecoder(file: file.path, document: document)
                let contract = decoder.decodeContract(streamed: streamed?.cases)
                diagnostics += decoder.diagnostics
                guard let contract else { continue }
                let idPointer = JSONPointer(tokens: ["id"])
                // Placed only for a message: a document's places may be made from its file read again.
                func idLocation(in relativePath: String) -> SourceLocation? { documents[relativePath]?.location(of: idPointer) }
                if let first = idLocations[contract.id] {
                    diagnostics.append(.error(
                        "duplicate contract id '\(contract.id)', first defined at \(ShownText.oneLine(first.file))\(position(idLocation(in: first.relativePath)))",
                        file: file.path, location: idLocation(in: file.relativePath), pointer: idPointer))
                    continue
                }
                idLocations[contract.id] = (file.path, file.relativePath)
                let folded = FixturePathName.collisionKey(contract.id)
                if let first = foldedIDs[folded] {
                    diagnostics.append(.error(
                        "contract id '\(contract.id)' differs only in case from '\(first.id)', first defined at \(ShownText.oneLine(first.file))\(position(idLocation(in: first.relativePath))); file systems that ignore case would give both one fixture folder",
                        file: file.path, location: idLocation(in: file.relativePath), pointer: idPointer))
                } else {
                    foldedIDs[folded] = (contract.id, file.path, file.relativePath)
                }
                // One schema at a time: gathered into an array first (`schemas`), they were a
                // fifth of a large contract's size again at the stage's peak.
                contract.forEachSchema { schema in
                    // A schema that is only a `$ref` to another file resolves the same from every
                    // place in a file and leaves no cycle to find, so once it resolved cleanly the
                    // checker has nothing more to say about it there: large contracts write one in
                    // every case.
                    guard let key = repeatableReference(schema.schema, in: file.relativePath) else {
                        checker.check(file: file.relativePath, pointer: schema.pointer)
                        return
                    }
                    guard !cleanReferences.contains(key) else { return }
                    let reported = checker.diagnostics.count
                    checker.check(file: file.relativePath, pointer: schema.pointer)
                    if checker.diagnostics.count == reported { cleanReferences.insert(key) }
                }
                contracts.append(contract)
            }
            let unreferenced = files.filter {
                $0.isSchemaDocument && documents[$0.relativePath] != nil && !checker.referencedFiles.contains($0.relativePath)
            }
            for file in unreferenced {
                diagnostics.append(.warning("schema file is not referenced by any contract", file: file.path,
                    location: SourceLocation(line: 1, column: 1, offset: 0)))
                checker.check(file: file.relativePath, pointer: .root)
            }
            checker.checkCycles()
            diagnostics += checker.diagnostics
        }
        let relativePaths = Dictionary(files.map { ($0.path, $0.relativePath) }, uniquingKeysWith: { first, _ in first })
        if checksSchemas {
            let catalog = SchemaCatalog(files: schemaFiles, displayPaths: displayPaths, assertsFormats: settings.formatAssertion)
            diagnostics += checkSchemas(
                contracts, files: files, documents: documents, displayPaths: displayPaths, relativePaths: relativePaths, catalog: catalog, known: diagnostics)
        }

        // A file read again for a diagnostic's place that is no longer what was read: what was
        // found in it stands, but its places are not known, and the run must not pass for clean.
        for (path, places) in rereadPlaces where places.changed {
            diagnostics.append(.error(RereadPlaces.changedMessage, file: path))
        }
        if !files.contains(where: { !$0.isSchemaDocument && !$0.isTreeSettings }) {
            diagnostics.append(.error("no contract files (*.json outside 'schemas' folders) found", file: directory))
        }
        var set = ContractSet(contracts: contracts, documents: documents, diagnostics: diagnostics.sorted(), relativePaths: relativePaths)
        set.settings = settings
        return set
    }
}

extension ContractLoader {
    /// A file's document, its text given back as it is parsed. With `rereading`, without places:
    /// they are made from the file read again when first asked for, and at once for a file whose
    /// keys repeat (each is reported where it is).
    ///
    /// With `streamsCases` too, a contract's cases are decoded as the parse finishes each, and the
    /// document keeps only their schemas (``CaseStream``), which is returned for the decode.
    private static func parse(
        taking text: inout [UInt8], of file: SourceFile, rereading: (@Sendable (String, Int) -> [UInt8]?)?, streamsCases: Bool,
        rereadPlaces: inout [(path: String, places: RereadPlaces)]
    ) throws(JSONSyntaxError) -> (JSONDocument, CaseStream?) {
        let parser = JSONParser(sharesValues: true)
        guard let rereading else { return (try parser.parse(taking: &text), nil) }
        let relativePath = file.relativePath
        let size = text.count
        let places = RereadPlaces(read: { rereading(relativePath, size) }, text: text, parser: parser)
        rereadPlaces.append((file.path, places))
        var stream = streamsCases ? CaseStream(file: file.path, places: places, size: size) : nil
        var document: JSONDocument? = try parser.parse(taking: &text, placesLater: places, streaming: stream)
        if let parsed = document, parsed.unplacedDuplicateKeys == 0 { return (parsed, stream) }
        // Each repeated key is reported where it is, from the whole tree with its places (the
        // one a diagnostic may have made already): what the stream decoded (from the first of two
        // `cases`, say) is let go first, with the tree it kept.
        stream = nil
        document = nil
        guard let placed = places.placedDocument() else {
            throw JSONSyntaxError(message: RereadPlaces.changedMessage, location: SourceLocation(line: 1, column: 1, offset: 0))
        }
        return (placed, nil)
    }
}

/// The text of a schema whose meaning does not depend on where it is written: no reference and no
/// identifier anywhere in it. Nil for any other.
private func selfContained(_ schema: JSONValue) -> String? {
    let text = CanonicalJSONWriter(style: .compact).string(schema)
    for keyword in ["\"$ref\"", "\"$dynamicRef\"", "\"$recursiveRef\"", "\"$id\"", "\"$anchor\"", "\"$dynamicAnchor\"", "\"$recursiveAnchor\"", "\"id\""]
    where text.contains(keyword) {
        return nil
    }
    return "inline|" + text
}

/// For a schema that is only `{"$ref": …}` naming another resource (not a fragment of itself),
/// the file and reference, which decide everything the checks find about it.
private func repeatableReference(_ schema: JSONValue, in relativePath: String) -> String? {
    guard let reference = SchemaCatalog.reference(in: schema), !reference.hasPrefix("#") else { return nil }
    // A relative reference resolves against the file's folder: every file there reaches the same
    // resource with the same text (an import writes all its contracts in one folder).
    let folder = relativePath.lastIndex(of: "/").map { String(relativePath[..<$0]) } ?? ""
    return folder + "\u{0}" + reference
}

/// `:line:column`, or nothing when the place is unknown.
private func position(_ location: SourceLocation?) -> String {
    location.map { ":\($0.line):\($0.column)" } ?? ""
}

/// The validator's checks: schemas against meta-schemas, examples and bodies against schemas.
/// A problem already reported at the same place (a missing `$ref` target, say) is not repeated.
private func checkSchemas(
    _ contracts: [Contract], files: [SourceFile], documents: [String: JSONDocument], displayPaths: [String: String],
    relativePaths: [String: String], catalog: SchemaCatalog, known: [Diagnostic]
) -> [Diagnostic] {
    let schemaFiles = files.filter(\.isSchemaDocument).map(\.relativePath)
    var checker = SchemaChecker(documents: documents, displayPaths: displayPaths, catalog: catalog)
    checker.cyclesReported = known.contains { $0.message.contains("reference cycle") }
    checker.checkSchemaFiles(schemaFiles)
    // Reference-only schemas without values to check that compiled cleanly once in a file, and
    // self-contained schemas (no reference, no identifier) that did anywhere in the tree: the same
    // again finds nothing new. Parameters repeat a few small schemas thousands of times
    // (`{"type": "boolean"}` for every `pretty` of an API), each compiled and checked against its
    // meta-schema but for this.
    var cleanReferences: Set<String> = []
    func check(
        _ schema: SchemaReference, _ relativePath: String, _ examples: [(JSONValue, JSONPointer, String)], alternatives: [[JSONValue]] = [],
        sent: Bool = false
    ) {
        let key = examples.isEmpty ? repeatableReference(schema.schema, in: relativePath) ?? selfContained(schema.schema) : nil
        if let key, cleanReferences.contains(key) { return }
        let reported = checker.diagnostics.count
        checker.check(schema, relativePath: relativePath, examples: examples, alternatives: alternatives, sent: sent)
        if let key, checker.diagnostics.count == reported { cleanReferences.insert(key) }
    }
    for contract in contracts {
        guard let relativePath = relativePaths[contract.file] else { continue }
        // Each described parameter once, with every value a case sends for it; a case that
        // expects a 4xx may send a value that breaks it on purpose.
        for parameter in contract.endpoint.parameters {
            guard let schema = parameter.schema else { continue }
            var values: [(JSONValue, JSONPointer, String)] = []
            // Each value's other readings (a schema naming its type through `$ref` or a
            // combinator takes whichever it accepts), tried only when the first fails.
            var alternatives: [[JSONValue]] = []
            var seen: Set<JSONPointer> = []
            for testCase in contract.cases where !testCase.response.status.isClientError {
                guard let sent = contract.sentValues(of: parameter, in: testCase), let texts = sent.texts, seen.insert(sent.pointer).inserted else { continue }
                let readings = parameter.readings(of: texts)
                values.append((readings[0], sent.pointer, "the \(parameter.location.rawValue) parameter '\(parameter.name)'"))
                alternatives.append(Array(readings.dropFirst()))
            }
            check(schema, relativePath, values, alternatives: alternatives)
        }
        // The endpoint's request schema once, with every body a case that does not expect a 4xx
        // sends; a case's own schema with its own body.
        if let schema = contract.endpoint.schema {
            var bodies: [(JSONValue, JSONPointer, String)] = []
            for testCase in contract.cases where !testCase.response.status.isClientError {
                if case .json(let body) = testCase.request.body {
                    bodies.append((body, testCase.pointer.appending("request").appending("body"), "the request 'body'"))
                }
            }
            check(schema, relativePath, bodies, sent: true)
        }
        // By index: a case is a large value, and a loop over the array copied each one.
        for index in contract.cases.indices {
            if let schema = contract.cases[index].request.schema {
                var bodies: [(JSONValue, JSONPointer, String)] = []
                if case .json(let body) = contract.cases[index].request.body {
                    bodies.append((body, contract.cases[index].pointer.appending("request").appending("body"), "the request 'body'"))
                }
                check(schema, relativePath, bodies, sent: true)
            }
            if case .json(let schema, let example) = contract.cases[index].response.body.base {
                let examples = example.map { [($0, contract.cases[index].pointer.appending("response").appending("example"), "the 'example'")] } ?? []
                check(schema, relativePath, examples)
            }
        }
    }
    let seen = Set(known.map { "\($0.file ?? "")|\($0.pointer?.description ?? "")" })
    var unique: [Diagnostic] = []
    // A set beside the list: looking along the list for each was quadratic (50,000 examples
    // that miss their schema took minutes).
    var kept: Set<Diagnostic> = []
    for diagnostic in checker.diagnostics where !seen.contains("\(diagnostic.file ?? "")|\(diagnostic.pointer?.description ?? "")") {
        if kept.insert(diagnostic).inserted { unique.append(diagnostic) }
    }
    return unique
}

extension Contract {
    /// Every schema the contract writes: its parameters', and request and response bodies of its
    /// cases, gathered into one array (an array per case cost a large contract's load).
    public var schemas: [SchemaReference] {
        var schemas: [SchemaReference] = []
        schemas.reserveCapacity(endpoint.parameters.count + 1 + cases.count)
        forEachSchema { schemas.append($0) }
        return schemas
    }

    /// Calls `body` with each of ``schemas`` in turn, in the same order, without gathering them.
    func forEachSchema(_ body: (SchemaReference) -> Void) {
        for parameter in endpoint.parameters { if let schema = parameter.schema { body(schema) } }
        if let schema = endpoint.schema { body(schema) }
        // By index: a loop over the cases copied each one whole.
        for index in cases.indices {
            if let schema = cases[index].request.schema { body(schema) }
            for step in cases[index].setup + cases[index].teardown { if let schema = step.request.schema { body(schema) } }
            if case .json(let schema, _) = cases[index].response.body.base { body(schema) }
        }
    }
}
