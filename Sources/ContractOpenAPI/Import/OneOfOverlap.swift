import ContractFixtures
import ContractJSON
import ContractModel
import ContractSchema

/// `oneOf`s whose branches one value satisfies together, read as `anyOf`.
///
/// `oneOf` means exactly one branch matches. Documents often list shapes that overlap (two object
/// branches whose differing properties are optional, a reference type that a looser one also
/// accepts), meaning "one of these shapes": then the very responses the server sends match two
/// branches and fail, and no fixture can be made. The overlap is proven, not guessed: a value is
/// built from each branch (as `contract fixtures` builds bodies) and checked against the others;
/// the warning shows the value that matched several. Without such a value, `oneOf` stays.
struct OneOfOverlap {
    /// Branches tried per `oneOf`: far beyond what documents list.
    static let maximumBranches = 64

    private let session: SchemaCompilationSession
    private let sampler: SchemaSampler

    /// - Parameter files: every contract and shared schema file the import made, by output path.
    init(files: [String: JSONValue]) {
        var registry = SchemaRegistry()
        for (path, value) in files { registry.register(value, uri: "file:///" + path) }
        session = SchemaCompilationSession(registry: registry)
        sampler = SchemaSampler(files: files)
    }

    /// One overlap: where the `oneOf` is (its schema object), which branches the witness matched.
    struct Finding {
        var pointer: JSONPointer
        var branches: [Int]
        var witness: JSONValue
    }

    /// The overlapping `oneOf`s among the schemas of `value` (a contract or schema file at `file`),
    /// starting at `roots` (the whole file for a schema file; each case's schema for a contract).
    func findings(in value: JSONValue, file: String, roots: [JSONPointer]) -> [Finding] {
        var found: [Finding] = []
        var pending: [(JSONValue, JSONPointer)] = roots.compactMap { root in value[pointer: root].map { ($0, root) } }
        while let (schema, pointer) = pending.popLast() {
            guard case .object(let object) = schema else { continue }
            if case .array(let branches)? = object["oneOf"], branches.count > 1, let finding = overlap(branches, file: file, at: pointer) {
                found.append(finding)
            }
            for member in object where !["const", "enum", "examples", "example", "default"].contains(member.key) {
                let at = pointer.appending(member.key)
                switch member.value {
                case .object(let map) where ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].contains(member.key):
                    for entry in map { pending.append((entry.value, at.appending(entry.key))) }
                case .array(let elements):
                    for (index, element) in elements.enumerated() { pending.append((element, at.appending(index))) }
                default:
                    pending.append((member.value, at))
                }
            }
        }
        return found.sorted { $0.pointer.description < $1.pointer.description }
    }

    private func overlap(_ branches: [JSONValue], file: String, at pointer: JSONPointer) -> Finding? {
        let count = min(branches.count, Self.maximumBranches)
        var validators: [Int: JSONSchema?] = [:]
        func validator(_ index: Int) -> JSONSchema? {
            if let known = validators[index] { return known }
            let compiled = try? session.compile(nil, uri: "file:///" + file + pointer.appending("oneOf").appending(index).uriFragment)
            validators[index] = compiled
            return compiled
        }
        for index in 0..<count {
            guard let witness = sampler.sample(branches[index], in: file, seed: "\(file)\(pointer.uriFragment)/\(index)"),
                validator(index)?.isValid(witness) == true
            else { continue }
            let matched = (0..<count).filter { $0 == index || validator($0)?.isValid(witness) == true }
            if matched.count > 1 { return Finding(pointer: pointer, branches: matched, witness: witness) }
        }
        return nil
    }

    /// `oneOf` renamed `anyOf` in place (the key keeps its position); beside an `anyOf` of its own,
    /// both must hold, so the branches join an `allOf`. Returns where the branches now are.
    static func readAsAnyOf(_ value: inout JSONValue, at pointer: JSONPointer) -> JSONPointer {
        var moved = pointer.appending("anyOf")
        _ = SchemaRepair.modify(&value, at: pointer.tokens[...]) { schema in
            guard case .object(var object) = schema, let branches = object["oneOf"] else { return false }
            if object["anyOf"] == nil {
                object = JSONObject(object.members.map { $0.key == "oneOf" ? JSONObject.Member(key: "anyOf", value: branches) : $0 })
            } else {
                object["oneOf"] = nil
                let parts = object["allOf"]?.arrayValue ?? []
                moved = pointer.appending("allOf").appending(parts.count).appending("anyOf")
                object["allOf"] = .array(parts + [.object(JSONObject([JSONObject.Member(key: "anyOf", value: branches)]))])
            }
            schema = .object(object)
            return true
        }
        return moved
    }

    /// A branch moved from `from` to `to` in `file`: references into it (`pet.json#/oneOf/1`,
    /// which documents write to reuse one branch) follow it, from any file of the tree.
    struct Move: Hashable {
        var file: String
        var from: JSONPointer
        var to: JSONPointer
    }

    /// `value` (the file at `path`) with each reference into a moved place pointing to where it went.
    static func following(_ moves: [Move], in value: JSONValue, path: String) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.members.map { member in
                guard member.key == "$ref", let reference = member.value.stringValue else {
                    return JSONObject.Member(key: member.key, value: following(moves, in: member.value, path: path))
                }
                let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let pointer = try? JSONPointer(uriFragment: "#" + parts[1]) else { return member }
                let target = parts[0].isEmpty ? path : RelativePath.resolve(String(parts[0]), from: RelativePath.folder(of: path))
                // The deepest move first: a moved branch may itself hold a moved `oneOf`.
                guard let move = moves.filter({ $0.file == target && pointer.tokens.starts(with: $0.from.tokens) }).max(by: { $0.from.tokens.count < $1.from.tokens.count })
                else { return member }
                let rewritten = JSONPointer(tokens: move.to.tokens + pointer.tokens.dropFirst(move.from.tokens.count))
                return JSONObject.Member(key: "$ref", value: .string(String(parts[0]) + rewritten.uriFragment))
            }))
        case .array(let elements):
            return .array(elements.map { following(moves, in: $0, path: path) })
        default:
            return value
        }
    }

    static func message(_ finding: Finding) -> String {
        let names = finding.branches.map(String.init)
        let list = names.count == 2 ? "\(names[0]) and \(names[1])" : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        let writer = CanonicalJSONWriter(style: .compact, sortsKeys: false)
        return "branches \(list) of this 'oneOf' all accept \(MessageText.oneLine(writer.string(finding.witness), to: 160)), so a value like it fails 'oneOf' (exactly one branch); read as 'anyOf' (at least one). To keep 'oneOf', make the branches exclusive (a 'const' or a required property that tells them apart)"
    }
}

extension OneOfOverlap {
    /// Every overlapping `oneOf` of the contracts and shared schemas read as `anyOf`, in place;
    /// the warnings, located in the document.
    /// - Parameter sources: each shared schema file's place in the document, by output path.
    static func mend(
        contracts: inout [ImportedContract], schemas: inout [String: JSONValue], sources: [String: JSONPointer], document: OpenAPIDocument
    ) -> [Diagnostic] {
        var files = schemas
        for contract in contracts { files[contract.file] = .object(contract.value) }
        let overlap = OneOfOverlap(files: files)
        var warnings: [Diagnostic] = []
        var moves: [Move] = []
        for path in schemas.keys.sorted() {
            guard var value = schemas[path] else { continue }
            let findings = overlap.findings(in: value, file: path, roots: [.root])
            for finding in findings {
                moves.append(Move(file: path, from: finding.pointer.appending("oneOf"), to: readAsAnyOf(&value, at: finding.pointer)))
                let base = sources[path] ?? .root
                warnings.append(document.warning(message(finding), at: JSONPointer(tokens: base.tokens + finding.pointer.tokens + ["oneOf"])))
            }
            schemas[path] = value
        }
        for index in contracts.indices {
            var value = JSONValue.object(contracts[index].value)
            let cases = contracts[index].value["cases"]?.arrayValue ?? []
            let roots = cases.indices.map { JSONPointer(tokens: ["cases", String($0), "response", "schema"]) }
            for finding in overlap.findings(in: value, file: contracts[index].file, roots: roots) {
                moves.append(Move(file: contracts[index].file, from: finding.pointer.appending("oneOf"), to: readAsAnyOf(&value, at: finding.pointer)))
                warnings.append(document.warning("\(contracts[index].id), \(finding.pointer.description): " + message(finding), at: contracts[index].pointer))
            }
            contracts[index].value = value.objectValue ?? contracts[index].value
        }
        guard !moves.isEmpty else { return warnings }
        for path in Array(schemas.keys) {
            schemas[path] = schemas[path].map { following(moves, in: $0, path: path) }
        }
        for index in contracts.indices {
            contracts[index].value = following(moves, in: .object(contracts[index].value), path: contracts[index].file).objectValue ?? contracts[index].value
        }
        return warnings
    }
}
