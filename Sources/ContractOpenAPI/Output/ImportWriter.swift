import ContractFiles
import ContractJSON
import ContractModel
import Foundation

/// Writes an import's files into the output folder, and only files the import owns.
///
/// The folder's `.contract-import.json` records each file an import wrote and its SHA-256. A
/// re-import rewrites only those files, and only while they are as it left them: a file a person
/// wrote, or a generated one a person edited, stops the import before anything is written, so no
/// one's work is ever overwritten. Generated files the document no longer produces are removed.
/// The same document gives byte-identical files (and an unchanged manifest). The folder is an
/// ``OwnedFolder``: the new files replace the old in one step, and nothing follows a link.
public enum ImportWriter {
    public static let manifestName = ImportManifest.name

    public struct Outcome: Sendable {
        public var written: [String] = []
        public var unchanged: [String] = []
        public var removed: [String] = []
        /// Generated files that are no longer produced but were edited, so were kept.
        public var kept: [String] = []
    }

    /// - Parameter values: the `--value`s the import used, kept in the manifest so the next
    /// import of the folder uses them too (``recordedValues(in:)``).
    public static func write(
        _ result: ImportResult, to directory: String, source: String, values: [String: JSONValue] = [:]
    ) throws(DiagnosticsError) -> Outcome {
        let folder = OwnedFolder(path: directory)
        let shownManifest = directory + "/" + manifestName
        let recorded = try readManifest(folder, shown: shownManifest)
        var outcome = Outcome()
        if result.files.isEmpty && recorded.isEmpty { return outcome }
        var conflicts: [Diagnostic] = []
        var writes: [FolderPath: [UInt8]] = [:]
        for file in result.files {
            let target = directory + "/" + file.path
            let relative: FolderPath
            do {
                relative = try FolderPath(validating: file.path)
            } catch {
                conflicts.append(.error("cannot be written: \(error)", file: target))
                continue
            }
            if let obstacle = folder.obstacle(at: relative) {
                conflicts.append(.error(obstacle, file: target))
                continue
            }
            guard let existing = folder.read(relative) else {
                writes[relative] = file.bytes
                continue
            }
            guard let hash = recorded[relative] else {
                conflicts.append(.error("this file was not written by an import; move it away or import into another folder", file: target))
                continue
            }
            guard SHA256.hex(existing) == hash else {
                conflicts.append(.error("this file was edited since the last import; keep your edits in another file, or delete it to import it again", file: target))
                continue
            }
            if existing == file.bytes { outcome.unchanged.append(file.path) } else { writes[relative] = file.bytes }
        }
        if !conflicts.isEmpty { throw DiagnosticsError(conflicts) }

        let produced = Set(result.files.map(\.path))
        var removals: Set<FolderPath> = []
        for (relative, hash) in recorded.sorted(by: { $0.key < $1.key }) where !produced.contains(relative.description) {
            guard let existing = folder.read(relative) else { continue }
            if SHA256.hex(existing) == hash {
                removals.insert(relative)
                outcome.removed.append(relative.description)
            } else {
                outcome.kept.append(relative.description)
            }
        }
        var files: [String: String] = [:]
        for file in result.files { files[file.path] = SHA256.hex(file.bytes) }
        for path in outcome.kept { files[path] = (try? FolderPath(validating: path)).flatMap { recorded[$0] } }
        let manifestBytes = ImportManifest(source: source, values: values, files: files).bytes
        let manifestRelative = try manifestPath(shown: shownManifest)
        if folder.read(manifestRelative) != manifestBytes { writes[manifestRelative] = manifestBytes }
        outcome.written = writes.keys.filter { $0 != manifestRelative }.sorted().map(\.description)
        do {
            try folder.replace(writing: writes, removing: removals)
        } catch {
            throw DiagnosticsError([.error("cannot write the contracts: \(error); the folder is unchanged", file: directory)])
        }
        return outcome
    }

    private static func manifestPath(shown: String) throws(DiagnosticsError) -> FolderPath {
        do {
            return try FolderPath(validating: manifestName)
        } catch {
            throw DiagnosticsError([.error("\(error)", file: shown)])
        }
    }

    /// The `--value`s an earlier import of the folder used; empty when there is none to read.
    public static func recordedValues(in directory: String) -> [String: JSONValue] {
        let folder = OwnedFolder(path: directory)
        guard let name = try? FolderPath(validating: manifestName), let bytes = folder.read(name),
            let manifest = try? ImportManifest(parsing: bytes, shown: directory + "/" + manifestName)
        else { return [:] }
        return manifest.values
    }

    /// The files an earlier import wrote and their hashes (``ImportManifest``: a path that is not
    /// inside the folder refuses the manifest).
    private static func readManifest(_ folder: OwnedFolder, shown: String) throws(DiagnosticsError) -> [FolderPath: String] {
        let name = try manifestPath(shown: shown)
        let contents: [UInt8]?
        do {
            contents = try folder.contents(of: name)
        } catch {
            throw DiagnosticsError([.error(error.description, file: shown)])
        }
        guard let bytes = contents else { return [:] }
        let manifest = try ImportManifest(parsing: bytes, shown: shown)
        return Dictionary(manifest.files.compactMap { path, hash in (try? FolderPath(validating: path)).map { ($0, hash) } }, uniquingKeysWith: { _, last in last })
    }
}
