import ContractFiles
import ContractJSON
import ContractModel

/// `.contract-import.json` in an import's output folder: each file the import wrote and its
/// SHA-256, the document it came from, and the `--value`s it used. Its one writer (``bytes``)
/// and one reader (``init(parsing:shown:)``), for ``ImportWriter``.
struct ImportManifest: Sendable, Equatable {
    static let name = ".contract-import.json"

    /// The document, as the command line gave it.
    var source: String
    /// The `--value`s the import used, so the next import of the folder uses them too.
    var values: [String: JSONValue]
    /// Each file's SHA-256, by its path in the folder.
    var files: [String: String]

    init(source: String, values: [String: JSONValue], files: [String: String]) {
        self.source = source
        self.values = values
        self.files = files
    }

    var bytes: [UInt8] {
        var manifest = JSONObject()
        manifest["generator"] = "contract import openapi"
        manifest["source"] = .string(source)
        if !values.isEmpty {
            manifest["values"] = .object(JSONObject(values.keys.sorted().compactMap { name in values[name].map { .init(key: name, value: $0) } }))
        }
        manifest["files"] = .object(JSONObject(files.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .string($0.value)) }))
        return CanonicalJSONWriter(style: .pretty).bytes(.object(manifest))
    }

    /// Reads a manifest; `shown` names it in diagnostics. A path that is not inside the folder
    /// refuses the manifest, at its line and column: a hostile one must not make an import
    /// delete files elsewhere. A file whose hash is not a string is not listed.
    init(parsing bytes: [UInt8], shown: String) throws(DiagnosticsError) {
        let document: JSONDocument
        do throws(JSONSyntaxError) {
            document = try JSONParser().parse(bytes)
        } catch {
            throw DiagnosticsError([.error("the import manifest is not valid JSON: \(error.message)", file: shown, location: error.location)])
        }
        let root = document.value.objectValue
        var files: [String: String] = [:]
        var problems: [Diagnostic] = []
        for member in root?["files"]?.objectValue ?? JSONObject() {
            let pointer = JSONPointer(tokens: ["files", member.key])
            do {
                _ = try FolderPath(validating: member.key)
                if let hash = member.value.stringValue { files[member.key] = hash }
            } catch {
                problems.append(.error(
                    "\(error); the import manifest lists only files inside its folder, so it is refused", file: shown,
                    location: document.keyLocation(of: pointer), pointer: pointer))
            }
        }
        if !problems.isEmpty { throw DiagnosticsError(problems) }
        self.source = root?["source"]?.stringValue ?? ""
        self.values = Dictionary((root?["values"]?.objectValue ?? JSONObject()).members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        self.files = files
    }
}
