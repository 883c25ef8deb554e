import ContractJSON
import ContractModel
import Foundation

/// The other files a document refers to (`$ref: ./paths/pets.yaml`, `../common.yaml#/Error`),
/// read and bundled into the document under `/x-contract-files/<path>`, with each reference
/// rewritten to point there, so the import reads one tree of values.
///
/// Only files inside the folder of the document the user named are read: a reference above it,
/// to the network (`https://…`), to a missing file or to one that does not parse is a warning at
/// the referring line, and what it would describe is left out. Files referring to each other are
/// read once. References inside vendor extensions (`x-…`) are not followed.
struct ExternalReferences: Sendable {
    static let area = "x-contract-files"

    struct File: Sendable {
        /// As diagnostics show it: beside the root document's shown path.
        let shown: String
        let path: String
        let locate: @Sendable (JSONPointer) -> SourceLocation?
        var value: JSONValue
    }

    private let rootPath: String
    private let rootFolder: String
    private let rootShown: String
    private let rootLocate: @Sendable (JSONPointer) -> SourceLocation?
    /// By key: the file's path relative to the root folder.
    private var files: [String: File] = [:]
    /// The path of every file read.
    var paths: [String] { files.values.map(\.path) }
    /// What the other files may still hold together (``OpenAPIDocument/maxTotalBytes``, less the
    /// document and the files read so far).
    private var remainingBytes: Int
    private(set) var warnings: [Diagnostic] = []
    /// References left as written because a warning already said why (outside, missing, network).
    private(set) var refused: Set<String> = []

    init(rootPath: String, shownAs shown: String, locate: @escaping @Sendable (JSONPointer) -> SourceLocation?) {
        // Links resolved, so a link inside the folder that leads out of it is seen for what it is.
        let absolute = URL(fileURLWithPath: rootPath).standardizedFileURL.resolvingSymlinksInPath()
        self.rootPath = absolute.path
        rootFolder = absolute.deletingLastPathComponent().path
        rootShown = shown
        rootLocate = locate
        remainingBytes = OpenAPIDocument.maxTotalBytes - Self.size(of: absolute.path)
    }

    /// The size of the file at `path` as the file system tells it (0 when it cannot).
    private static func size(of path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// `root` with every reference to another file rewritten, and those files under ``area``.
    mutating func bundle(_ root: JSONObject) -> JSONObject {
        var queue: [String] = []
        guard case .object(var result) = rewrite(.object(root), inFile: nil, at: .root, queue: &queue) else { return root }
        while let key = queue.popLast(), let file = files[key] {
            let value = rewrite(file.value, inFile: key, at: .root, queue: &queue)
            files[key]?.value = value
        }
        guard !files.isEmpty else { return root }
        result[Self.area] = .object(JSONObject(files.keys.sorted().compactMap { key in files[key].map { .init(key: key, value: $0.value) } }))
        return result
    }

    /// For a pointer into a bundled file: that file, its positions and the pointer inside it.
    func place(of pointer: JSONPointer) -> (file: String, locate: @Sendable (JSONPointer) -> SourceLocation?, pointer: JSONPointer)? {
        guard pointer.tokens.count >= 2, pointer.tokens[0] == Self.area, let file = files[pointer.tokens[1]] else { return nil }
        return (file.shown, file.locate, JSONPointer(tokens: Array(pointer.tokens.dropFirst(2))))
    }

    // MARK: Rewriting

    private mutating func rewrite(_ value: JSONValue, inFile key: String?, at pointer: JSONPointer, queue: inout [String]) -> JSONValue {
        switch value {
        case .object(let object):
            var result = JSONObject()
            for member in object {
                if member.key == "$ref", let reference = member.value.stringValue {
                    result["$ref"] = .string(rewritten(reference, inFile: key, at: pointer.appending("$ref"), queue: &queue))
                } else if member.key.hasPrefix("x-") || (Self.isData(member.key, member.value, in: pointer) && !Self.isNameMap(pointer)) {
                    // Extensions and example data: a `$ref` inside them is a value, not a reference.
                    result[member.key] = member.value
                } else if member.key == "mapping", pointer.tokens.last == "discriminator", case .object(let mapping) = member.value {
                    // A discriminator's mapping names schemas by reference too; rewritten alike,
                    // it still names the branches. A bare name (`Dog`) is left as it is.
                    result["mapping"] = .object(JSONObject(mapping.members.map { entry in
                        guard let target = entry.value.stringValue,
                            target.contains("/") || target.contains("#") || [".yaml", ".yml", ".json"].contains(where: target.hasSuffix)
                        else { return entry }
                        return .init(key: entry.key, value: .string(rewritten(target, inFile: key, at: pointer.appending("mapping").appending(entry.key), queue: &queue)))
                    }))
                } else {
                    result[member.key] = rewrite(member.value, inFile: key, at: pointer.appending(member.key), queue: &queue)
                }
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.enumerated().map { rewrite($0.element, inFile: key, at: pointer.appending($0.offset), queue: &queue) })
        default:
            return value
        }
    }

    /// `reference` as written in the file `key` (nil: the root document), made local to the bundle.
    private mutating func rewritten(_ reference: String, inFile key: String?, at pointer: JSONPointer, queue: inout [String]) -> String {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        if path.isEmpty {
            // Local to the file it is written in: inside a bundled file, local to that file's place.
            guard let key else { return reference }
            return local(key: key, fragment: fragment) ?? reference
        }
        if path.contains("://") || path.hasPrefix("urn:") {
            warn("'\(Self.shown(reference))' is on the network, which the import never reads; what it describes is left out", about: reference, inFile: key, at: pointer)
            return reference
        }
        let folder = key.map { (rootFolder as NSString).appendingPathComponent(($0 as NSString).deletingLastPathComponent) } ?? rootFolder
        let target = URL(fileURLWithPath: (folder as NSString).appendingPathComponent(path.removingPercentEncoding ?? path))
            .standardizedFileURL.resolvingSymlinksInPath().path
        guard target.hasPrefix(rootFolder + "/") else {
            warn(
                "'\(Self.shown(reference))' is outside the folder of the document, which the import never reads; what it describes is left out",
                about: reference, inFile: key, at: pointer)
            return reference
        }
        if target == rootPath { return local(key: nil, fragment: fragment) ?? reference }
        let targetKey = String(target.dropFirst(rootFolder.count + 1))
        if files[targetKey] == nil {
            guard FileManager.default.fileExists(atPath: target) else {
                warn("'\(Self.shown(reference))' refers to a file that does not exist; what it describes is left out", about: reference, inFile: key, at: pointer)
                return reference
            }
            let shown = ((rootShown as NSString).deletingLastPathComponent as NSString).appendingPathComponent(targetKey)
            do {
                let (value, locate) = try OpenAPIDocument.parse(
                    path: target, shownAs: shown, limit: max(0, min(OpenAPIDocument.maxFileBytes, remainingBytes)))
                remainingBytes -= Self.size(of: target)
                files[targetKey] = File(shown: shown, path: target, locate: locate, value: value)
                queue.append(targetKey)
            } catch {
                refused.insert(reference)
                warnings += error.diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.severity = .warning
                    diagnostic.message += "; what refers to it is left out"
                    return diagnostic
                }
                return reference
            }
        }
        return local(key: targetKey, fragment: fragment) ?? reference
    }

    /// `#/x-contract-files/<key>/<fragment>`, or the root's own `#<fragment>` when `key` is nil.
    private func local(key: String?, fragment: String) -> String? {
        // Fragments are JSON Pointers, percent-encoded or not (`#/api_keys_{id}` is seen as written).
        guard let inner = (try? JSONPointer(uriFragment: "#" + fragment)) ?? (try? JSONPointer(parsing: fragment)) else { return nil }
        return JSONPointer(tokens: (key.map { [Self.area, $0] } ?? []) + inner.tokens).uriFragment
    }

    private mutating func warn(_ message: String, about reference: String, inFile key: String?, at pointer: JSONPointer) {
        refused.insert(reference)
        let file = key.flatMap { files[$0] }
        let locate = file?.locate ?? rootLocate
        let location = OpenAPIDocument.nearest(pointer, in: locate)
        warnings.append(.warning(message, file: file?.shown ?? rootShown, location: location, pointer: pointer))
    }

    /// Example data and schema values. `examples` is data as a schema's array, but a map of
    /// Example Objects (which may be references) beside a media type or a parameter.
    static func isData(_ key: String, _ value: JSONValue) -> Bool {
        switch key {
        case "example", "default", "enum", "const", "value": true
        case "examples": value.arrayValue != nil
        default: false
        }
    }

    /// ``isData(_:_:)`` for the member `key` of the object at `pointer`; also a Swagger 2.0
    /// response's `examples`, a map of media types to example values (a 2.0 document is bundled
    /// before it is converted; 3.x responses have no `examples` of their own).
    static func isData(_ key: String, _ value: JSONValue, in pointer: JSONPointer) -> Bool {
        isData(key, value) || (key == "examples" && pointer.tokens.dropLast().last == "responses")
    }

    /// Whether the object at `pointer` is a map of names (`properties`, `schemas`…), whose keys
    /// may be spelled like data keywords.
    static func isNameMap(_ pointer: JSONPointer) -> Bool {
        ["properties", "patternProperties", "schemas", "parameters", "responses", "headers", "definitions", "$defs", "paths"]
            .contains(pointer.tokens.last ?? "")
    }

    private static func shown(_ reference: String) -> String {
        MessageText.oneLine(reference, to: 100)
    }
}
