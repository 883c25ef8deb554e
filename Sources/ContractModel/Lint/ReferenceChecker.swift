import ContractJSON

/// Checks every `$ref` reachable from the contracts' schemas: the file exists inside the tree,
/// the fragment resolves, and no chain of references loops without ever reaching a value.
///
/// Relative references resolve from the referring file's folder. References with a scheme
/// (`https:`, `urn:`) name documents by `$id` and are resolved by the schema validator.
struct ReferenceChecker {
    /// Parsed documents by path relative to the tree; files that failed to parse are absent.
    let documents: [String: JSONDocument]
    /// Display paths by relative path.
    let displayPaths: [String: String]
    private(set) var diagnostics: [Diagnostic] = []
    /// Files whose references were walked already, or are waiting in ``pendingFiles``.
    private var walkedFiles: Set<String> = []
    /// Files a reference reached, walked after the schema that reached them: walking each on the
    /// spot nested one walk per file, and a chain of thousands of files overflowed the stack.
    private var pendingFiles: [String] = []
    /// Resolved edges from the schema object holding a `$ref` to its target.
    private var edges: [SchemaLocation: (target: SchemaLocation, ref: String, refPointer: JSONPointer)] = [:]
    private(set) var referencedFiles: Set<String> = []

    init(documents: [String: JSONDocument], displayPaths: [String: String]) {
        self.documents = documents
        self.displayPaths = displayPaths
    }

    /// Checks a schema written in a contract (or a whole schema file when `pointer` is the root).
    mutating func check(file: String, pointer: JSONPointer) {
        guard let document = documents[file], let value = document.value[pointer: pointer] else { return }
        if pointer.isRoot, !walkedFiles.insert(file).inserted { return }
        walk(value, at: pointer, resource: SchemaResource(file: file, root: pointer))
        while let next = pendingFiles.popLast() {
            guard let reached = documents[next] else { continue }
            walk(reached.value, at: .root, resource: SchemaResource(file: next, root: .root))
        }
    }

    /// Reports each reference cycle once, at the `$ref` that closes it in a stable order.
    mutating func checkCycles() {
        var reported: Set<Set<SchemaLocation>> = []
        // Every schema on a cycle is the target of a reference, so only those need to be walked
        // from: a large tree has a reference in every case, and almost none is ever a target.
        var targets: [SchemaLocation: SchemaLocation] = [:]
        var referenced: Set<SchemaLocation> = []
        for edge in edges.values {
            if targets[edge.target] == nil { targets[edge.target] = inPlaceTarget(edge.target) }
            if let target = targets[edge.target] { referenced.insert(target) }
        }
        for start in edges.keys.filter(referenced.contains).sorted() {
            var chain: [SchemaLocation] = [start]
            var current = start
            while let edge = edges[current] {
                let next = inPlaceTarget(edge.target)
                if let loopStart = chain.firstIndex(of: next) {
                    let cycle = Array(chain[loopStart...])
                    if reported.insert(Set(cycle)).inserted, let closing = cycle.min(), let closingEdge = edges[closing] {
                        let path = (cycle + [cycle[0]]).map(\.description).joined(separator: " -> ")
                        report(
                            "$ref '\(closingEdge.ref)' is part of a reference cycle that never reaches a value: \(path)",
                            file: closing.file, pointer: closingEdge.refPointer)
                    }
                    break
                }
                guard chain.count < 1000 else { break }
                chain.append(next)
                current = next
            }
        }
    }

    /// A schema that is only a `$ref` (or wraps one in `allOf`) passes straight through to its target.
    private func inPlaceTarget(_ location: SchemaLocation) -> SchemaLocation {
        guard let value = documents[location.file]?.value[pointer: location.pointer], let object = value.objectValue else { return location }
        if object["$ref"] != nil { return location }
        if let allOf = object["allOf"]?.arrayValue, allOf.count == 1, allOf[0].objectValue?["$ref"] != nil {
            return SchemaLocation(file: location.file, pointer: location.pointer.appending("allOf").appending(0))
        }
        return location
    }

    private static let dataKeywords: Set<String> = ["const", "enum", "default", "examples", "example"]

    private mutating func walk(_ value: JSONValue, at pointer: JSONPointer, resource: SchemaResource) {
        switch value {
        case .object(let object):
            for member in object {
                let memberPointer = pointer.appending(member.key)
                if member.key == "$ref", case .string(let reference) = member.value {
                    resolve(reference, at: memberPointer, from: SchemaLocation(file: resource.file, pointer: pointer), resource: resource)
                } else if !Self.dataKeywords.contains(member.key) {
                    walk(member.value, at: memberPointer, resource: resource)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                walk(element, at: pointer.appending(index), resource: resource)
            }
        default:
            break
        }
    }

    private mutating func resolve(_ reference: String, at refPointer: JSONPointer, from source: SchemaLocation, resource: SchemaResource) {
        let hash = reference.firstIndex(of: "#")
        let pathPart = String(hash.map { reference[..<$0] } ?? reference[...])
        let fragment = hash.map { String(reference[reference.index(after: $0)...]) } ?? ""
        if let colon = pathPart.firstIndex(of: ":"), !pathPart[..<colon].contains("/") { return }

        var target = resource
        if !pathPart.isEmpty {
            guard let file = RelativePath.resolve(pathPart, from: RelativePath.folder(of: source.file)) else {
                report("$ref '\(reference)' points outside the contracts directory", file: source.file, pointer: refPointer)
                return
            }
            guard documents[file] != nil else {
                if displayPaths[file] == nil {
                    let shown = (displayPaths[source.file].map { String($0.dropLast(source.file.utf8.count)) } ?? "") + file
                    let siblings = displayPaths.keys.filter { RelativePath.folder(of: $0) == RelativePath.folder(of: file) }
                    let hint = suggestion(for: file, among: siblings.sorted()).map { ", did you mean '\(relativeName($0, from: source.file))'?" } ?? ""
                    report("$ref '\(reference)' points to '\(shown)', which does not exist\(hint)", file: source.file, pointer: refPointer)
                }
                return  // a file that exists but does not parse has its own diagnostic
            }
            target = SchemaResource(file: file, root: .root)
            referencedFiles.insert(file)
            if walkedFiles.insert(file).inserted { pendingFiles.append(file) }
        }
        guard let document = documents[target.file] else { return }
        let resourceValue = document.value[pointer: target.root] ?? .null
        var targetPointer = target.root
        if fragment.hasPrefix("/") || fragment.isEmpty {
            let pointer: JSONPointer
            do {
                pointer = try JSONPointer(uriFragment: fragment)
                _ = try resourceValue.resolve(pointer)
            } catch {
                report("$ref '\(reference)' does not resolve: \(error.message)", file: source.file, pointer: refPointer)
                return
            }
            targetPointer = JSONPointer(tokens: target.root.tokens + pointer.tokens)
        } else {
            guard let anchor = findAnchor(fragment, in: resourceValue, at: target.root) else {
                report(
                    "$ref '\(reference)' names the anchor '\(fragment)', which no '$anchor' in \(pathPart.isEmpty ? "this schema" : "'\(pathPart)'") declares",
                    file: source.file, pointer: refPointer)
                return
            }
            targetPointer = anchor
        }
        edges[source] = (SchemaLocation(file: target.file, pointer: targetPointer), reference, refPointer)
    }

    private func findAnchor(_ name: String, in value: JSONValue, at pointer: JSONPointer) -> JSONPointer? {
        switch value {
        case .object(let object):
            if object["$anchor"]?.stringValue == name || object["$dynamicAnchor"]?.stringValue == name { return pointer }
            for member in object where !Self.dataKeywords.contains(member.key) {
                if let found = findAnchor(name, in: member.value, at: pointer.appending(member.key)) { return found }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let found = findAnchor(name, in: element, at: pointer.appending(index)) { return found }
            }
        default:
            break
        }
        return nil
    }

    /// How a suggested file is written relative to the referring file.
    private func relativeName(_ file: String, from source: String) -> String {
        var from = RelativePath.folder(of: source).split(separator: "/").map(String.init)
        var to = file.split(separator: "/").map(String.init)
        while let first = from.first, to.count > 1, first == to.first {
            from.removeFirst()
            to.removeFirst()
        }
        return (Array(repeating: "..", count: from.count) + to).joined(separator: "/")
    }

    private mutating func report(_ message: String, file: String, pointer: JSONPointer) {
        let document = documents[file]
        let location = document?.location(of: pointer) ?? document?.nearestLocation(of: pointer)
        diagnostics.append(.error(message, file: displayPaths[file] ?? file, location: location, pointer: pointer))
    }
}
