import ContractJSON
import ContractSchema

/// Follows `$ref`s through a contracts tree the way lint and the validator read them (relative to
/// the file or the enclosing `$id`, shared files by path, by the URIs the settings publish them at
/// or by their `$id`), for tools that walk schemas rather than validate with them: every step
/// knows the file and pointer it stands at, so what they report is placed in the tree.
public struct SchemaResolver: Sendable {
    /// Where a schema is: the file (relative to the tree) and pointer, and the resource it belongs
    /// to (the base URI references resolve against, and where that resource starts in the file).
    public struct Place: Sendable, Hashable {
        public var file: String
        public var pointer: JSONPointer
        var baseURI: String
        var resourceRoot: JSONPointer
    }

    private let documents: [String: JSONDocument]
    private let files: TreeSchemaFiles
    private let resources: [String: RegisteredPlace]

    public init(_ set: ContractSet) {
        documents = set.documents
        files = TreeSchemaFiles(documents: set.documents, settings: set.settings)
        resources = TreeIdentifiers(files: files).resources
    }

    /// The schema a contract writes (inline, or only a `$ref`), at its place.
    public func schema(_ reference: SchemaReference, relativeFile: String) -> (value: JSONValue, place: Place) {
        let place = Place(
            file: relativeFile, pointer: reference.pointer, baseURI: TreeSchemaFiles.uri(file: relativeFile, pointer: reference.pointer),
            resourceRoot: reference.pointer)
        return (reference.schema, entering(reference.schema, at: place))
    }

    /// The place of `value`, a subschema met at `place`: a subschema that declares `$id` starts a
    /// resource of its own.
    public func entering(_ value: JSONValue, at place: Place) -> Place {
        guard case .string(let id)? = value.objectValue?["$id"] else { return place }
        var inner = place
        inner.baseURI = URIReference(parsing: place.baseURI).resolving(id).withoutFragment.description
        inner.resourceRoot = place.pointer
        return inner
    }

    /// The place of the child at `token` of the schema at `place`.
    public func child(_ token: String, of place: Place) -> Place {
        var child = place
        child.pointer = place.pointer.appending(token)
        return child
    }

    /// What `reference` (a `$ref` written at `place`) names, and where; nil when the tree does not
    /// hold it (lint reports that; walkers treat the schema as opaque).
    public func resolve(_ reference: String, from place: Place) -> (value: JSONValue, place: Place)? {
        let absolute = URIReference(parsing: place.baseURI).resolving(reference)
        let resourceURI = absolute.withoutFragment.description
        let target: (file: String, root: JSONPointer, baseURI: String)
        if resourceURI == place.baseURI {
            target = (place.file, place.resourceRoot, place.baseURI)
        } else if let file = files.fileOfURI[resourceURI] {
            target = (file, .root, files.canonicalURI[file] ?? resourceURI)
        } else if let registered = resources[resourceURI], let (file, pointer) = files.fileAndPointer(registered.document) {
            target = (file, JSONPointer(tokens: pointer.tokens + registered.pointer.tokens), resourceURI)
        } else {
            return nil
        }
        guard let document = documents[target.file], let resource = document.value[pointer: target.root] else { return nil }
        let fragment = absolute.fragment ?? ""
        let inner: JSONPointer
        if fragment.isEmpty {
            inner = .root
        } else if fragment.hasPrefix("/") {
            guard let pointer = try? JSONPointer(uriFragment: fragment) else { return nil }
            inner = pointer
        } else {
            guard let anchored = Self.anchor(fragment, in: resource, at: .root) else { return nil }
            inner = anchored
        }
        guard let value = resource[pointer: inner] else { return nil }
        let resourcePlace = Place(file: target.file, pointer: target.root, baseURI: target.baseURI, resourceRoot: target.root)
        let place = Place(
            file: target.file, pointer: JSONPointer(tokens: target.root.tokens + inner.tokens), baseURI: target.baseURI, resourceRoot: target.root)
        return (value, inner.isRoot ? entering(value, at: resourcePlace) : entering(value, at: place))
    }

    /// Where `$anchor: name` is declared inside `value`, not looking into nested resources.
    private static func anchor(_ name: String, in value: JSONValue, at pointer: JSONPointer) -> JSONPointer? {
        switch value {
        case .object(let object):
            if object["$anchor"] == .string(name) || object["$dynamicAnchor"] == .string(name) { return pointer }
            for member in object.members {
                if !pointer.isRoot, member.key == "$id" { return nil }
                if let found = anchor(name, in: member.value, at: pointer.appending(member.key)) { return found }
            }
            return nil
        case .array(let values):
            for (index, element) in values.enumerated() {
                if let found = anchor(name, in: element, at: pointer.appending(index)) { return found }
            }
            return nil
        default:
            return nil
        }
    }
}
