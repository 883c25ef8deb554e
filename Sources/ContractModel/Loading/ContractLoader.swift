import ContractJSON

/// The load stage: parse every file, decode the contracts, check what spans files (unique ids,
/// schema references). Pure: it works on files already read, so tests need no disk.
public enum ContractLoader {
    /// Reads and loads the tree at `directory`; throws only when the directory cannot be listed.
    public static func load(directory: String) throws(ContractSourceReader.ReadError) -> ContractSet {
        let files = try ContractSourceReader.read(directory: directory)
        return load(files: files, directory: directory)
    }

    /// Loads files already in memory; `directory` names the tree in the "no contracts" diagnostic.
    public static func load(files: [SourceFile], directory: String) -> ContractSet {
        var diagnostics: [Diagnostic] = []
        var documents: [String: JSONDocument] = [:]
        var displayPaths: [String: String] = [:]
        for file in files {
            displayPaths[file.relativePath] = file.path
            if let readError = file.readError {
                diagnostics.append(.error(readError, file: file.path))
                continue
            }
            do {
                documents[file.relativePath] = try JSONParser().parse(file.bytes)
            } catch {
                diagnostics.append(.error(error.message, file: file.path, location: error.location))
            }
        }

        var contracts: [Contract] = []
        var idLocations: [String: (file: String, location: SourceLocation?)] = [:]
        var checker = ReferenceChecker(documents: documents, displayPaths: displayPaths)
        for file in files where !file.isSchemaDocument {
            guard let document = documents[file.relativePath] else { continue }
            var decoder = DocumentDecoder(file: file.path, document: document)
            let contract = decoder.decodeContract()
            diagnostics += decoder.diagnostics
            guard let contract else { continue }
            let idPointer = JSONPointer(tokens: ["id"])
            if let first = idLocations[contract.id] {
                let position = first.location.map { ":\($0.line):\($0.column)" } ?? ""
                diagnostics.append(.error(
                    "duplicate contract id '\(contract.id)', first defined at \(first.file)\(position)", file: file.path,
                    location: document.location(of: idPointer), pointer: idPointer))
                continue
            }
            idLocations[contract.id] = (file.path, document.location(of: idPointer))
            for schema in contract.schemas {
                checker.check(file: file.relativePath, pointer: schema.pointer)
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

        if !files.contains(where: { !$0.isSchemaDocument }) {
            diagnostics.append(.error("no contract files (*.json outside 'schemas' folders) found", file: directory))
        }
        return ContractSet(contracts: contracts, documents: documents, diagnostics: diagnostics.sorted())
    }
}

extension Contract {
    /// Every schema the contract writes: request and response bodies of its cases.
    public var schemas: [SchemaReference] {
        cases.flatMap { testCase -> [SchemaReference] in
            var schemas: [SchemaReference] = []
            if let schema = testCase.request.schema { schemas.append(schema) }
            for step in testCase.setup { if let schema = step.request.schema { schemas.append(schema) } }
            if case .json(let schema, _) = testCase.response.body { schemas.append(schema) }
            return schemas
        }
    }
}
