import ContractJSON
import ContractModel
import Foundation

/// Writes an import's files into the output folder, and only files the import owns.
///
/// The folder's `.contract-import.json` records each file an import wrote and its SHA-256. A
/// re-import rewrites only those files, and only while they are as it left them: a file a person
/// wrote, or a generated one a person edited, stops the import before anything is written, so no
/// one's work is ever overwritten. Generated files the document no longer produces are removed.
/// The same document gives byte-identical files (and an unchanged manifest).
public enum ImportWriter {
    public static let manifestName = ".contract-import.json"

    public struct Outcome: Sendable {
        public var written: [String] = []
        public var unchanged: [String] = []
        public var removed: [String] = []
        /// Generated files that are no longer produced but were edited, so were kept.
        public var kept: [String] = []
    }

    public static func write(_ result: ImportResult, to directory: String, source: String) throws(ImportFailure) -> Outcome {
        let manifestPath = directory + "/" + manifestName
        let recorded = try readManifest(manifestPath)
        var outcome = Outcome()
        if result.files.isEmpty && recorded.isEmpty { return outcome }
        var conflicts: [Diagnostic] = []
        var pending: [GeneratedFile] = []
        for file in result.files {
            let target = directory + "/" + file.path
            guard let existing = FileManager.default.contents(atPath: target).map(Array.init) else {
                pending.append(file)
                continue
            }
            guard let hash = recorded[file.path] else {
                conflicts.append(.error("this file was not written by an import; move it away or import into another folder", file: target))
                continue
            }
            guard SHA256.hex(existing) == hash else {
                conflicts.append(.error("this file was edited since the last import; keep your edits in another file, or delete it to import it again", file: target))
                continue
            }
            if existing == file.bytes { outcome.unchanged.append(file.path) } else { pending.append(file) }
        }
        if !conflicts.isEmpty { throw ImportFailure(diagnostics: conflicts) }

        let produced = Set(result.files.map(\.path))
        do {
            for file in pending {
                let target = URL(fileURLWithPath: directory + "/" + file.path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.bytes).write(to: target, options: .atomic)
                outcome.written.append(file.path)
            }
            for (path, hash) in recorded.sorted(by: { $0.key < $1.key }) where !produced.contains(path) {
                let target = directory + "/" + path
                guard let existing = FileManager.default.contents(atPath: target) else { continue }
                if SHA256.hex(Array(existing)) == hash {
                    try FileManager.default.removeItem(atPath: target)
                    outcome.removed.append(path)
                } else {
                    outcome.kept.append(path)
                }
            }
            var files = JSONObject()
            for file in result.files { files[file.path] = .string(SHA256.hex(file.bytes)) }
            for path in outcome.kept { files[path] = recorded[path].map(JSONValue.string) }
            var manifest = JSONObject()
            manifest["generator"] = "contract import openapi"
            manifest["source"] = .string(source)
            manifest["files"] = .object(files)
            try Data(CanonicalJSONWriter(style: .pretty).bytes(.object(manifest))).write(to: URL(fileURLWithPath: manifestPath), options: .atomic)
        } catch {
            throw ImportFailure(diagnostics: [.error("cannot write the contracts: \(error.localizedDescription)", file: directory)])
        }
        return outcome
    }

    private static func readManifest(_ path: String) throws(ImportFailure) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        do {
            let document = try JSONParser().parse(Array(data))
            var files: [String: String] = [:]
            for member in document.value.objectValue?["files"]?.objectValue ?? JSONObject() {
                if let hash = member.value.stringValue { files[member.key] = hash }
            }
            return files
        } catch {
            throw ImportFailure(diagnostics: [.error("the import manifest is not valid JSON: \(error.message)", file: path, location: error.location)])
        }
    }
}
