import ContractJSON
import ContractModel
import Foundation

/// How the synthesizer follows `$ref`, as the validator does for what fixtures meet: `#…` in the
/// resource in force (a file, a case's inline schema, or a schema with its own `$id`), a path
/// from the referring file's folder, and an absolute URI (or a path under an absolute `$id`) by
/// the `$id` a shared file declares at its root. Nothing is fetched.
extension BodySynthesizer {
    /// `part` as a resource of its own when `object` declares an `$id` (other than a bare anchor).
    func entering(_ part: SchemaPart, _ object: JSONObject) -> SchemaPart {
        guard let id = object["$id"]?.stringValue, !id.hasPrefix("#") else { return part }
        var inner = part
        inner.resource = .object(object)
        inner.base = Self.absolute(id, against: part.base) ?? part.base
        return inner
    }

    /// The schema `reference` names, written in `part`, with the place its own references are read from.
    func resolve(_ reference: String, from part: SchemaPart) -> SchemaPart? {
        let pieces = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pieces[0])
        let fragment = pieces.count > 1 ? String(pieces[1]) : ""
        if path.isEmpty {
            guard let resource = part.resource ?? documents[part.file]?.value else { return nil }
            return Self.select(fragment, in: resource).map { SchemaPart(schema: $0, file: part.file, resource: resource, base: part.base) }
        }
        // By `$id`: an absolute URI, or a path resolved against the `$id` in force.
        if let uri = Self.absolute(path, against: part.base), let file = identifiers[uri], let root = documents[file]?.value {
            return Self.select(fragment, in: root).map { SchemaPart(schema: $0, file: file, resource: root, base: uri) }
        }
        // By path, from the referring file's folder (`/…` from the tree's root).
        let target = path.hasPrefix("/") ? String(path.dropFirst()) : RelativePath.resolve(path, from: RelativePath.folder(of: part.file))
        guard let target, let root = documents[target]?.value else { return nil }
        let base = root.objectValue?["$id"]?.stringValue.flatMap { Self.absolute($0, against: nil) }
        return Self.select(fragment, in: root).map { SchemaPart(schema: $0, file: target, resource: root, base: base) }
    }

    /// The value at a fragment: a JSON Pointer, or an `$anchor` declared in the resource.
    private static func select(_ fragment: String, in resource: JSONValue) -> JSONValue? {
        if fragment.isEmpty || fragment.hasPrefix("/") || fragment.hasPrefix("%2F") {
            guard let pointer = try? JSONPointer(uriFragment: "#" + fragment) else { return nil }
            return resource[pointer: pointer]
        }
        return anchor(fragment.removingPercentEncoding ?? fragment, in: resource)
    }

    private static func anchor(_ name: String, in value: JSONValue) -> JSONValue? {
        var pending = [value]
        while let next = pending.popLast() {
            switch next {
            case .object(let object):
                if object["$anchor"]?.stringValue == name || object["$dynamicAnchor"]?.stringValue == name { return next }
                for member in object where !["const", "enum", "examples", "example", "default"].contains(member.key) {
                    pending.append(member.value)
                }
            case .array(let elements):
                pending += elements
            default:
                break
            }
        }
        return nil
    }

    /// `reference` as an absolute URI without fragment: as written when it has a scheme, else
    /// against `base`; nil when it is a plain path with no `$id` in force.
    static func absolute(_ reference: String, against base: String?) -> String? {
        if let colon = reference.firstIndex(of: ":"), !reference[..<colon].contains("/") {
            return String(reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
        }
        guard let base, let resolved = URL(string: reference, relativeTo: URL(string: base)) else { return nil }
        return resolved.absoluteString.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    /// Every document whose root declares an absolute `$id`, by that `$id`.
    static func identifiers(in documents: [String: JSONDocument]) -> [String: String] {
        PlanningWork.current?.add(documentsScanned: documents.count)
        var result: [String: String] = [:]
        for (file, document) in documents {
            guard let id = document.value.objectValue?["$id"]?.stringValue, let uri = absolute(id, against: nil) else { continue }
            // The first file by path wins, whatever order the dictionary gives them in.
            if let kept = result[uri], kept <= file { continue }
            result[uri] = file
        }
        return result
    }
}
