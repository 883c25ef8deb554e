import ContractJSON

/// A schema inside the contracts tree: a file (relative to the tree) and a pointer into it.
struct SchemaLocation: Hashable, Comparable, CustomStringConvertible {
    var file: String
    var pointer: JSONPointer

    static func < (lhs: SchemaLocation, rhs: SchemaLocation) -> Bool {
        lhs.file != rhs.file ? lhs.file.utf8.lexicographicallyPrecedes(rhs.file.utf8) : lhs.pointer < rhs.pointer
    }

    /// `schemas/product.json#/$defs/Money`, or the bare file for its root.
    var description: String {
        pointer.isRoot ? file : file + pointer.uriFragment
    }
}

/// A schema document as the reference checker walks it: what `$ref`s inside it resolve against.
/// A shared schema file is one document (under the URI it was reached by); each schema written
/// inline in a contract is a document of its own. `$id`s inside either start nested resources.
struct SchemaResource: Hashable {
    /// The URI the validator registers it under (`file:///…`, or a URI the settings publish a file at).
    var uri: String
    var file: String
    var root: JSONPointer
}

/// Lexical path arithmetic on `/`-separated relative paths.
public enum RelativePath {
    /// The folder part of `a/b/c.json`: `a/b` (empty for a top-level file).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Joins and normalises `.` and `..`; nil when the result leaves the root.
    public static func resolve(_ relative: String, from folder: String) -> String? {
        var parts = relative.hasPrefix("/") ? [] : folder.split(separator: "/").map(String.init)
        for part in relative.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }
}
