import Foundation
import ContractJSON
import ContractModel

/// A file the import writes, relative to the output folder.
public struct GeneratedFile: Sendable, Hashable {
    public var path: String
    public var bytes: [UInt8]
}

/// A request value the document gives no example for, made up from the parameter's schema: a
/// case using it may need a real one (an id that exists), given with `--value NAME=VALUE`.
public struct MadeUpValue: Sendable, Equatable {
    public var name: String
    /// `path`, `query`, `header`, or `body` for a member of a JSON body.
    public var location: String
    public var value: JSONValue
    /// `contract-id/case` of every case that sends it.
    public var usedBy: [String]
}

/// What an import made of a document, before anything is written.
public struct ImportResult: Sendable {
    public var files: [GeneratedFile]

    /// The files `contract lint` and `contract fixtures` read from the folder: all but the hidden
    /// ones (the format's schema for editors), as the loader sees them.
    public var tree: [SourceFile] { Self.tree(files) }

    static func tree(_ files: [GeneratedFile]) -> [SourceFile] {
        files.filter { !$0.path.hasPrefix(".") }.map { SourceFile(path: $0.path, relativePath: $0.path, bytes: $0.bytes) }
    }
    /// Warnings (what was skipped) and notes, located in the document.
    public var diagnostics: [Diagnostic]
    /// The environment variables the contracts read, one per security scheme used.
    public var variables: [SecurityVariable]
    /// The document's server URLs: candidates for `contract verify --base-url`.
    public var servers: [String]
    public var contractCount: Int
    public var caseCount: Int
    /// Parameter values made up for lack of an example, by name.
    public var madeUpValues: [MadeUpValue] = []
    /// Where each shared schema file was converted from: its path among ``files``
    /// (`schemas/pet.json`) to its place in the document as read, other files bundled under
    /// `/x-contract-files/<path>` (`/x-contract-files/pet.yaml`, `/components/schemas/Pet`).
    public var sharedSchemaSources: [String: JSONPointer] = [:]
    /// Where each generated file comes from in the document, line and column.
    public var sources = ImportSources.none
}

/// `contract import openapi` as a library: read and check the document, make one contract per
/// operation and one shared schema file per schema they refer to (components, and schemas in
/// other files of a split document), and lint the result in memory, so that what is written is a
/// tree `contract lint` accepts.
public enum OpenAPIImporter {
    /// - Parameter values: values for parameters by name, used before any the document gives.
    public static func importDocument(path: String, shownAs file: String, values: [String: JSONValue] = [:]) throws(DiagnosticsError) -> ImportResult {
        let document = try OpenAPIDocument.read(path: path, shownAs: file)
        var importer = OperationImporter(document: document)
        importer.givenValues = values
        var contracts = importer.importOperations()
        // Cases on an item the document shows how to make create it first, so they stand alone.
        let created = ResourceSetup(document: document).addSteps(to: &contracts, madeUp: importer.madeUp)
        let madeUp = importer.madeUp.compactMap { value -> MadeUpValue? in
            var value = value
            let provided = value.location == "path" ? Identifiers.placeholder(value.name) : value.location == "body" ? "body:" + value.name : nil
            value.usedBy.removeAll { use in provided.map { created[use]?.contains($0) == true } ?? false }
            return value.usedBy.isEmpty ? nil : value
        }
        var converter = importer.converter
        var schemas: [(path: String, value: JSONValue)] = []
        let writer = CanonicalJSONWriter(style: .pretty, sortsKeys: false)
        // Shared schemas refer to others: convert until no new one turns up. Each once, in the
        // order first referred to; converting one may refer to more, which join the end (a set
        // difference and a sort per schema made this quadratic). A loop, not a recursion: a chain
        // of 20,000 files, each referring to the next, is 20,000 turns here, not 20,000 frames.
        var next = 0
        while next < converter.sharedInOrder.count {
            let target = converter.sharedInOrder[next]
            next += 1
            schemas.append((converter.sharedPath(of: target), converter.convertShared(target) ?? .object(JSONObject())))
        }
        // Shown by a value both accept, overlapping `oneOf` branches are read as `anyOf`.
        var schemaValues = Dictionary(schemas, uniquingKeysWith: { first, _ in first })
        let overlaps = OneOfOverlap.mend(contracts: &contracts, schemas: &schemaValues, sources: converter.sharedSchemaSources, document: document)
        let schemaFiles = schemas.map { GeneratedFile(path: $0.path, bytes: writer.bytes(schemaValues[$0.path] ?? $0.value)) }
        var diagnostics = document.warnings + importer.diagnostics + importer.security.diagnostics + overlaps
        let (dropped, remaining) = dropInvalidExamples(&contracts, schemaFiles: schemaFiles, document: document)
        diagnostics += dropped + converter.warnings

        var files = contracts.map { GeneratedFile(path: $0.file, bytes: writer.bytes(.object($0.value))) }
        files += schemaFiles
        files.append(GeneratedFile(path: ContractFormatSchema.fileName, bytes: Array((ContractFormatSchema.text + "\n").utf8)))
        files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        if contracts.isEmpty {
            diagnostics.append(.warning("the document has no operations a contract can describe; nothing to write", file: file))
            files = []
        }
        // Leaving out an example or a body can only take errors away, so the first lint's other
        // errors are the tree's (a second lint of a large tree cost a fifth of the import).
        var problems = files.isEmpty ? [] : remaining
        // Whatever the mending above missed costs only the contracts it touches: each is left
        // out with the reason, and the rest is linted again (a shared schema file that is wrong
        // is the importer's fault, and stops the import, as before).
        for _ in 0..<4 where !problems.isEmpty {
            let broken = Set(problems.map { $0.file ?? "" })
            guard broken.allSatisfy({ !$0.hasPrefix("schemas/") }) else { break }
            let operations = Dictionary(contracts.map { ($0.file, $0.pointer) }, uniquingKeysWith: { first, _ in first })
            for problem in problems {
                let at = problem.file.flatMap { operations[$0] } ?? .root
                diagnostics.append(document.warning("this operation is left out: its contract does not lint: \(problem.message)", at: at))
            }
            contracts.removeAll { broken.contains($0.file) }
            files.removeAll { broken.contains($0.path) }
            guard !contracts.isEmpty else {
                diagnostics.append(.warning("no operation of the document makes a contract that lints; nothing to write", file: file))
                files = []
                problems = []
                break
            }
            problems = lint(files).filter { $0.severity == .error }
        }
        if !problems.isEmpty {
            // A document the importer cannot turn into valid contracts is the importer's fault;
            // say so rather than write a tree that does not lint.
            throw DiagnosticsError(problems.map {
                var diagnostic = $0
                diagnostic.message = "the import made an invalid contract (please report this with the document): " + diagnostic.message
                return diagnostic
            })
        }
        return ImportResult(
            files: files, diagnostics: diagnostics.sorted(),
            variables: (Array(importer.security.variables.values) + importer.headerVariables.values.filter { importer.security.variables[$0.name] == nil })
                .sorted { $0.name < $1.name },
            servers: servers(of: document), contractCount: contracts.count, caseCount: contracts.reduce(0) { $0 + $1.caseCount },
            madeUpValues: madeUp.sorted { ($0.name, $0.location) < ($1.name, $1.location) },
            sharedSchemaSources: files.isEmpty ? [:] : converter.sharedSchemaSources,
            sources: ImportSources(
                operations: Dictionary(contracts.map { ($0.file, $0.pointer) }, uniquingKeysWith: { first, _ in first }),
                inlineSchemas: Dictionary(contracts.map { ($0.file, $0.schemaSources) }, uniquingKeysWith: { first, _ in first }),
                schemas: files.isEmpty ? [:] : converter.sharedSchemaSources, document: document))
    }

    private static func lint(_ files: [GeneratedFile]) -> [Diagnostic] {
        LintReport(ContractLoader.load(files: ImportResult.tree(files), directory: ".")).diagnostics
    }

    /// Examples in the document that do not match their own schema would make the contracts fail
    /// lint: they are left out, each with one warning. The tree is linted once, not once per
    /// contract: lint resolves every schema file, so per-contract runs grew with the square of
    /// the document.
    private static func dropInvalidExamples(
        _ contracts: inout [ImportedContract], schemaFiles: [GeneratedFile], document: OpenAPIDocument
    ) -> (warnings: [Diagnostic], remaining: [Diagnostic]) {
        let writer = CanonicalJSONWriter(style: .pretty, sortsKeys: false)
        let files = contracts.map { GeneratedFile(path: $0.file, bytes: writer.bytes(.object($0.value))) } + schemaFiles
        let contractIndex = Dictionary(contracts.indices.map { (contracts[$0].file, $0) }, uniquingKeysWith: { first, _ in first })
        var warnings: [Diagnostic] = []
        var dropped: Set<String> = []
        let diagnostics = lint(files)
        for error in diagnostics where error.severity == .error {
            guard let file = error.file, let index = contractIndex[file], let pointer = error.pointer, let (caseIndex, key) = exampleLocation(pointer),
                dropped.insert("\(file)#\(caseIndex)/\(key.part)").inserted,
                case .array(var cases)? = contracts[index].value["cases"], case .object(var testCase) = cases[caseIndex],
                case .object(var part)? = testCase[key.part]
            else { continue }
            part[key.member] = nil
            testCase[key.part] = .object(part)
            cases[caseIndex] = .object(testCase)
            contracts[index].value["cases"] = .array(cases)
            let what = key.member == "body" ? "request body (from the document's example, or made from its schema)" : "response example"
            warnings.append(document.warning(
                "case '\(testCase["name"]?.stringValue ?? "")': the \(what) does not match its schema, left out (add an example to the document so the case can pass): \(error.message)",
                at: contracts[index].pointer))
        }
        // A value the case sends for a parameter that the parameter's own schema refuses (the
        // document's example, or one made up from a schema no value meets): the schema is left
        // out of the contract's description, which keeps the rest.
        var unchecked: Set<String> = []
        for error in diagnostics where error.severity == .error {
            guard let file = error.file, let index = contractIndex[file], let pointer = error.pointer, let (location, name) = parameterLocation(pointer),
                unchecked.insert("\(file)#\(location)/\(name)").inserted,
                case .object(var request)? = contracts[index].value["request"], case .object(var described)? = request["parameters"],
                case .object(var group)? = described[location], case .object(var parameter)? = group[name], parameter["schema"] != nil
            else { continue }
            parameter["schema"] = nil
            group[name] = .object(parameter)
            described[location] = .object(group)
            request["parameters"] = .object(described)
            contracts[index].value["request"] = .object(request)
            warnings.append(document.warning(
                "the \(location) parameter '\(name)': the value sent (the document's example, or one made up for want of it) does not match its schema, so the contract describes it without one (fix the example or the schema, or give one with --value): \(error.message)",
                at: contracts[index].pointer))
        }
        let remaining = diagnostics.filter { error in
            error.severity == .error
                && !(error.file.flatMap { contractIndex[$0] } != nil && (error.pointer.flatMap(exampleLocation) != nil || error.pointer.flatMap(parameterLocation) != nil))
        }
        return (warnings, remaining)
    }

    /// `/cases/N/response/example` or `/cases/N/request/body` and anything below them.
    private static func exampleLocation(_ pointer: JSONPointer) -> (Int, (part: String, member: String))? {
        let tokens = pointer.tokens
        guard tokens.count >= 4, tokens[0] == "cases", let index = Int(tokens[1]) else { return nil }
        switch (tokens[2], tokens[3]) {
        case ("response", "example"): return (index, ("response", "example"))
        case ("request", "body"): return (index, ("request", "body"))
        default: return nil
        }
    }

    /// The described parameter a case's (or the endpoint's) value is for: `query`, `page` for
    /// `/cases/0/request/query/page` or `/request/query/page/1`.
    private static func parameterLocation(_ pointer: JSONPointer) -> (String, String)? {
        var tokens = pointer.tokens[...]
        if tokens.first == "cases", tokens.count >= 2, Int(tokens[tokens.startIndex + 1]) != nil { tokens = tokens.dropFirst(2) }
        guard tokens.count >= 3, tokens.first == "request" else { return nil }
        let key = tokens[tokens.startIndex + 1]
        let name = tokens[tokens.startIndex + 2]
        switch key {
        case "pathParams": return ("path", name)
        case "query": return ("query", name)
        case "headers": return ("header", name)
        default: return nil
        }
    }

    private static func servers(of document: OpenAPIDocument) -> [String] {
        (document.root["servers"]?.arrayValue ?? []).compactMap { server in
            guard var url = server.objectValue?["url"]?.stringValue else { return nil }
            for variable in server.objectValue?["variables"]?.objectValue ?? JSONObject() {
                if let value = variable.value.objectValue?["default"]?.stringValue { url = url.replacingOccurrences(of: "{\(variable.key)}", with: value) }
            }
            return url
        }
    }
}
