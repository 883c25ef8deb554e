import ContractJSON
import ContractSchema

/// Checks every `$ref` reachable from the contracts' schemas, resolved exactly as the validator
/// resolves it: against the base URI in force (the file's, or the one the nearest enclosing `$id`
/// sets), to a shared schema file, an `$id` declared in the tree, a URI the tree's settings
/// publish a file at, or a bundled meta-schema. The target must exist, the fragment must resolve
/// in the resource it names, and no chain of references may loop without ever reaching a value.
/// Nothing is fetched from the network: an absolute URI the tree does not hold is an error.
struct ReferenceChecker {
    /// Parsed documents by path relative to the tree; files that failed to parse are absent.
    let documents: [String: JSONDocument]
    /// Display paths by relative path.
    let displayPaths: [String: String]
    private let files: TreeSchemaFiles
    private var identifiers: TreeIdentifiers
    private(set) var diagnostics: [Diagnostic] = []
    private var reported: Set<Diagnostic> = []
    /// Shared schema files (by the URI they were reached at) walked already, or waiting in ``pendingFiles``.
    private var walkedFiles: Set<String> = []
    /// Files a reference reached, walked after the schema that reached them: walking each on the
    /// spot nested one walk per file, and a chain of thousands of files overflowed the stack.
    private var pendingFiles: [SchemaResource] = []
    /// The identifiers of each resource walked, by its URI; nil for one that declares none.
    private var ownIdentifiers: [String: SchemaIdentifiers?] = [:]
    /// Resolved edges from the schema object holding a `$ref` to its target. The `$ref` itself is
    /// the source's member, read again for the one message a cycle gets: kept beside every edge,
    /// its text and pointer were a third of the table on an imported API's thousands of references.
    private var edges: [SchemaLocation: SchemaLocation] = [:]
    private(set) var referencedFiles: Set<String> = []
    /// Where a reference with a path (and no query) resolved from a schema declaring no
    /// identifiers, by file and reference: it resolves the same from every such schema of the
    /// file (their base URIs differ only in the query), and large trees write one in every case.
    /// Only successes are kept, so each place that writes a broken reference gets its diagnostic.
    private var resolvedByFile: [String: SchemaLocation?] = [:]

    init(documents: [String: JSONDocument], displayPaths: [String: String], files: TreeSchemaFiles) {
        self.documents = documents
        self.displayPaths = displayPaths
        self.files = files
        identifiers = TreeIdentifiers(files: files)
        for duplicate in identifiers.duplicates { reportDuplicate(duplicate.uri, first: duplicate.first, second: duplicate.second) }
    }

    /// Checks a schema written in a contract, or a whole shared schema file when `pointer` is the root.
    mutating func check(file: String, pointer: JSONPointer) {
        guard let document = documents[file], let value = document.value[pointer: pointer] else { return }
        let resource: SchemaResource
        if pointer.isRoot && SourceFile.isSchemaPath(file) {
            let uri = files.canonicalURI[file] ?? TreeSchemaFiles.uri(file: file)
            guard walkedFiles.insert(uri).inserted else { return }
            resource = SchemaResource(uri: uri, file: file, root: .root)
        } else {
            resource = SchemaResource(uri: TreeSchemaFiles.uri(file: file, pointer: pointer), file: file, root: pointer)
        }
        walk(value, at: pointer, resource: resource, rootValue: value)
        // An inline schema is walked once: its identifiers are not asked for again.
        if !resource.root.isRoot { ownIdentifiers[resource.uri] = nil }
        while let next = pendingFiles.popLast() {
            guard let reached = documents[next.file] else { continue }
            walk(reached.value, at: .root, resource: next, rootValue: reached.value)
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
            if targets[edge] == nil { targets[edge] = inPlaceTarget(edge) }
            if let target = targets[edge] { referenced.insert(target) }
        }
        for start in edges.keys.filter(referenced.contains).sorted() {
            var chain: [SchemaLocation] = [start]
            var current = start
            while let edge = edges[current] {
                let next = inPlaceTarget(edge)
                if let loopStart = chain.firstIndex(of: next) {
                    let cycle = Array(chain[loopStart...])
                    if reported.insert(Set(cycle)).inserted, let closing = cycle.min(), edges[closing] != nil {
                        let path = (cycle + [cycle[0]]).map(\.description).joined(separator: " -> ")
                        let refPointer = closing.pointer.appending("$ref")
                        let reference = documents[closing.file]?.value[pointer: refPointer]?.stringValue ?? ""
                        report(
                            "$ref '\(reference)' is part of a reference cycle that never reaches a value: \(path)",
                            file: closing.file, pointer: refPointer)
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

    private mutating func walk(_ value: JSONValue, at pointer: JSONPointer, resource: SchemaResource, rootValue: JSONValue) {
        switch value {
        case .object(let object):
            for member in object {
                let memberPointer = pointer.appending(member.key)
                if member.key == "$ref", case .string(let reference) = member.value {
                    resolve(reference, at: memberPointer, from: SchemaLocation(file: resource.file, pointer: pointer), resource: resource, rootValue: rootValue)
                } else if !Self.dataKeywords.contains(member.key) {
                    walk(member.value, at: memberPointer, resource: resource, rootValue: rootValue)
                }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                walk(element, at: pointer.appending(index), resource: resource, rootValue: rootValue)
            }
        default:
            break
        }
    }

    /// The identifiers of a resource being walked, when it declares any (nil: it is one resource at its URI).
    /// Found once per resource, on its first `$ref`: looking for identifiers walks the whole schema.
    private mutating func ownIdentifiers(_ resource: SchemaResource, rootValue: JSONValue) -> SchemaIdentifiers? {
        if let known = ownIdentifiers[resource.uri] { return known }
        var index: SchemaIdentifiers?
        if !SchemaIdentifiers.declaresIdentifiers(rootValue) {
            index = nil
        } else if SourceFile.isSchemaPath(resource.file) && resource.root.isRoot {
            index = identifiers.identifiers(ofDocument: resource.uri)
        } else {
            // As the validator compiles such a schema: alone, beside the tree's shared files.
            var registry = files.registry
            registry.register(rootValue, uri: resource.uri)
            index = SchemaIdentifiers(document: resource.uri, registry: registry)
        }
        ownIdentifiers[resource.uri] = .some(index)
        return index
    }

    /// Where a resource URI is, looked up in the validator's order: the schema being compiled, a
    /// document registered at that URI, then every `$id` of the tree's shared files.
    private mutating func place(of uri: String, from resource: SchemaResource, own: SchemaIdentifiers?) -> RegisteredPlace? {
        if let own, let pointer = own.resources[uri] { return RegisteredPlace(document: resource.uri, pointer: pointer) }
        if own == nil, uri == resource.uri { return RegisteredPlace(document: resource.uri, pointer: .root) }
        if files.registry.document(at: uri) != nil { return RegisteredPlace(document: uri, pointer: .root) }
        return identifiers.resources[uri]
    }

    private mutating func resolve(_ reference: String, at refPointer: JSONPointer, from source: SchemaLocation, resource: SchemaResource, rootValue: JSONValue) {
        let own = ownIdentifiers(resource, rootValue: rootValue)
        let cacheKey = own == nil && !reference.hasPrefix("#") && !reference.utf8.contains(UInt8(ascii: "?")) ? resource.file + "\u{0}" + reference : nil
        if let cacheKey, let known = resolvedByFile[cacheKey] {
            if let known { addEdge(from: source, to: known) }
            return
        }
        let base = own == nil
            ? URIReference(parsing: resource.uri)
            : SchemaIdentifiers.baseURI(
                at: JSONPointer(tokens: Array(source.pointer.tokens.dropFirst(resource.root.tokens.count))), in: rootValue, uri: resource.uri,
                registry: files.registry)
        let written = URIReference(parsing: reference)
        let writtenPath = String(reference[..<(reference.firstIndex(of: "#") ?? reference.endIndex)])
        // A relative path that climbs above the tree's root from a file's folder.
        if written.scheme == nil, written.authority == nil, !written.path.isEmpty, !written.path.hasPrefix("/"), base.scheme == "file",
            RelativePath.resolve(written.path, from: RelativePath.folder(of: String(base.path.dropFirst()))) == nil
        {
            report("$ref '\(reference)' points outside the contracts directory", file: source.file, pointer: refPointer)
            return
        }
        let absolute = base.resolving(written)
        let resourceURI = absolute.withoutFragment.description
        let fragment = absolute.fragment ?? ""
        guard let place = place(of: resourceURI, from: resource, own: own) else {
            reportUnresolved(reference, written: written, absolute: resourceURI, base: base, source: source, refPointer: refPointer, resource: resource)
            return
        }

        // The document the resource is in: this schema, a shared file, or a bundled meta-schema.
        let target: (file: String, root: JSONPointer, value: JSONValue)?
        if place.document == resource.uri {
            target = (resource.file, resource.root, rootValue)
        } else if let file = files.fileOfURI[place.document], let document = documents[file] {
            target = (file, .root, document.value)
            if file != resource.file || !SourceFile.isSchemaPath(resource.file) { referencedFiles.insert(file) }
            if walkedFiles.insert(place.document).inserted { pendingFiles.append(SchemaResource(uri: place.document, file: file, root: .root)) }
        } else {
            target = nil
        }
        let documentValue = target?.value ?? files.registry.document(at: place.document) ?? .null
        let resourceValue = documentValue[pointer: place.pointer] ?? .null
        // How the messages name the resource the fragment is looked up in.
        let named: String
        if written.scheme == nil && !writtenPath.isEmpty {
            named = "'\(writtenPath)'"
        } else if writtenPath.isEmpty && resourceURI == resource.uri {
            named = "this schema"
        } else {
            named = "'\(resourceURI)'"
        }
        var targetPointer = place.pointer
        if fragment.hasPrefix("/") || fragment.isEmpty {
            let pointer: JSONPointer
            do {
                pointer = try JSONPointer(uriFragment: fragment)
                _ = try resourceValue.resolve(pointer)
            } catch {
                // Under a nested `$id`, `#/…` means that resource: say so, it is what surprises.
                let scope = writtenPath.isEmpty && resourceURI != resource.uri ? " in '\(resourceURI)' (the '$id' in force here)" : ""
                report("$ref '\(reference)' does not resolve\(scope): \(error.message)", file: source.file, pointer: refPointer)
                return
            }
            targetPointer = JSONPointer(tokens: place.pointer.tokens + pointer.tokens)
        } else {
            let index = place.document == resource.uri ? own : identifiers.identifiers(ofDocument: place.document)
            guard let anchor = index?.anchors[resourceURI + "#" + fragment] else {
                report("$ref '\(reference)' names the anchor '\(fragment)', which no '$anchor' in \(named) declares", file: source.file, pointer: refPointer)
                return
            }
            targetPointer = anchor
        }
        guard let target else {
            if let cacheKey { resolvedByFile[cacheKey] = .some(nil) }
            return  // in a bundled meta-schema: no cycle can pass through it
        }
        let location = SchemaLocation(file: target.file, pointer: JSONPointer(tokens: target.root.tokens + targetPointer.tokens))
        if let cacheKey { resolvedByFile[cacheKey] = location }
        addEdge(from: source, to: location)
    }

    /// Records a resolved reference for ``checkCycles()``. A reference from a schema written in a
    /// contract to another file cannot be on a cycle (no file can refer back into a contract), so
    /// it is left out: a large tree writes one in every case.
    private mutating func addEdge(from source: SchemaLocation, to target: SchemaLocation) {
        if target.file != source.file && !SourceFile.isSchemaPath(source.file) { return }
        edges[source] = target
    }

    /// A reference to nothing the tree holds: a missing file, a contract, or an unknown absolute URI.
    private mutating func reportUnresolved(
        _ reference: String, written: URIReference, absolute: String, base: URIReference, source: SchemaLocation, refPointer: JSONPointer,
        resource: SchemaResource
    ) {
        let target = URIReference(parsing: absolute)
        if target.scheme == "file", (target.authority ?? "").isEmpty {
            let file = String(target.path.dropFirst())
            let shown = (displayPaths[source.file].map { String($0.dropLast(source.file.utf8.count)) } ?? "") + file
            if documents[file] != nil || file == TreeSettings.fileName && displayPaths[file] != nil {
                report(
                    "$ref '\(reference)' points to '\(shown)', which is \(file == TreeSettings.fileName ? "the tree's settings" : "a contract"), not a shared schema: shared schemas are the files in folders named 'schemas'",
                    file: source.file, pointer: refPointer)
            } else if displayPaths[file] == nil {
                let siblings = displayPaths.keys.filter { RelativePath.folder(of: $0) == RelativePath.folder(of: file) }
                let hint = suggestion(for: file, among: siblings.sorted()).map { ", did you mean '\(relativeName($0, from: source.file))'?" } ?? ""
                report("$ref '\(reference)' points to '\(shown)', which does not exist\(hint)", file: source.file, pointer: refPointer)
            }
            return  // a file that exists but does not parse has its own diagnostic
        }
        var message = "$ref '\(reference)'"
        if written.scheme == nil {
            let baseURI = base.withoutFragment.description
            let from = baseURI == resource.uri ? "'\(baseURI)', the URI \(TreeSettings.fileName) publishes this file at" : "the '$id' '\(baseURI)' in force here"
            message += " resolves to '\(absolute)' against \(from): no schema in the tree has that '$id'"
        } else {
            message += ": no schema in the tree has the '$id' '\(absolute)'"
        }
        message += ", and nothing is fetched from the network"
        let nearest = nearestKnownURIs(to: absolute, resource: resource)
        if !nearest.isEmpty {
            message += "; the nearest known '$id's: " + nearest.map { "'\($0)'" }.joined(separator: ", ")
        }
        // A relative path that names a file beside this one: under an `$id` it does not mean that file.
        if written.scheme == nil, written.authority == nil, !written.path.isEmpty, base.scheme != "file",
            let file = RelativePath.resolve(written.path, from: RelativePath.folder(of: resource.file)), documents[file] != nil
        {
            message += "; the file '\(relativeName(file, from: source.file))' is not meant: under an '$id', a relative '$ref' resolves against the '$id', not the file's folder"
        }
        report(message, file: source.file, pointer: refPointer)
    }

    /// The `$id`s of the tree (and of the schema being walked) nearest to an unknown URI; the bundled
    /// meta-schemas only when one is a likely typo of it.
    private func nearestKnownURIs(to uri: String, resource: SchemaResource) -> [String] {
        let own = (ownIdentifiers[resource.uri] ?? nil)?.resources.keys.filter { !$0.hasPrefix("file:") } ?? []
        let declared = Array(Set(identifiers.declaredURIs + own))
        let metaSchemas = files.registry.uris.filter { !$0.hasPrefix("file:") && files.fileOfURI[$0] == nil }
        let typo = suggestion(for: uri, among: metaSchemas).map { [$0] } ?? []
        return typo + TreeIdentifiers.nearest(to: uri, among: declared, count: 3 - typo.count)
    }

    /// Two places of the tree declare one resource URI: a reference to it could mean either.
    private mutating func reportDuplicate(_ uri: String, first: RegisteredPlace, second: RegisteredPlace) {
        guard let (firstFile, _) = files.fileAndPointer(first.document), let (secondFile, _) = files.fileAndPointer(second.document) else { return }
        let firstShown = (displayPaths[firstFile] ?? firstFile) + (first.pointer.isRoot ? "" : first.pointer.uriFragment)
        let declares = documents[secondFile]?.value[pointer: second.pointer]?.objectValue?["$id"] != nil
        report(
            "'\(uri)' names two schemas: this one and \(firstShown); a reference to it could mean either, so give each its own '$id'",
            file: secondFile, pointer: declares ? second.pointer.appending("$id") : second.pointer)
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
        let diagnostic = Diagnostic.error(message, file: displayPaths[file] ?? file, location: location, pointer: pointer)
        // A file reached under two URIs (its path and a URI the settings publish it at) is walked twice.
        if reported.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
    }
}
