import ContractFiles
import Foundation

/// The I/O edge of loading: lists and reads every `.json` file under a directory, in a stable order.
public enum ContractSourceReader {
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads the tree; hidden files and folders are skipped. Throws only when the directory itself is unusable.
    public static func read(directory: String) throws(ReadError) -> [SourceFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw ReadError(message: "No such directory '\(directory)'")
        }
        guard isDirectory.boolValue else {
            throw ReadError(message: "'\(directory)' is not a directory")
        }
        // Listed with readdir and lstat: Foundation's enumerator asked for each file's resource
        // values, a fifth of loading a tree of 4,000 files.
        var relativePaths: [String] = []
        guard list(directory, relative: "", into: &relativePaths, depth: 0) else {
            throw ReadError(message: "Cannot list the directory '\(directory)'")
        }
        relativePaths.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let prefix = displayPrefix(directory)
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        return relativePaths.map { relative in
            let path = prefix + relative
            switch InputFile.read(root + relative, limit: maxFileBytes) {
            case .success(let bytes): return SourceFile(path: path, relativePath: relative, bytes: bytes)
            case .failure(.tooLarge):
                return SourceFile(path: path, relativePath: relative, bytes: [], readError:
                    "the file is too large: a contract or schema file is at most \(InputFile.describe(bytes: maxFileBytes))")
            case .failure(let failure):
                return SourceFile(path: path, relativePath: relative, bytes: [], readError: "cannot read the file: \(InputFile.reason(failure))")
            }
        }
    }

    /// Reads a file of the tree at `directory` again by its relative path: a regular file, not a
    /// link, of at most the given size (what it was when first read; nothing larger is read);
    /// nil when it cannot be read so.
    public static func rereader(directory: String) -> @Sendable (_ relativePath: String, _ size: Int) -> [UInt8]? {
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        return { relative, size in try? InputFile.read(root + relative, limit: min(size, maxFileBytes), regularOnly: true).get() }
    }

    /// The largest contract or schema file read. Loading takes about five times a file's size
    /// (its text while it is parsed, then its tree, locations and model), so one this large
    /// already needs some 5 GB; a file past it (a log or a dump saved as `.json` in the tree) is
    /// reported, never read into memory. The largest real contracts are tens of megabytes.
    public static let maxFileBytes = 1 << 30

    /// Folders deeper than this are not listed: a tree of contracts is a few levels deep, and a
    /// loop of bind mounts must end.
    static let maxDepth = 64

    /// Appends the `.json` regular files under `folder` (hidden ones and hidden folders skipped,
    /// links neither read nor followed), as paths relative to the tree. False when `folder`
    /// cannot be opened.
    private static func list(_ folder: String, relative: String, into paths: inout [String], depth: Int) -> Bool {
        guard depth <= maxDepth, let stream = opendir(folder) else { return false }
        defer { closedir(stream) }
        var folders: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: folders.append(name)
            case S_IFREG where name.hasSuffix(".json"): paths.append(relative + name)
            default: continue
            }
        }
        for name in folders {
            // A subfolder that cannot be opened is skipped, as the enumerator skipped it.
            _ = list(folder + "/" + name, relative: relative + name + "/", into: &paths, depth: depth + 1)
        }
        return true
    }

    /// `contracts` and `contracts/` both display as `contracts/…`; `.` displays bare paths.
    static func displayPrefix(_ directory: String) -> String {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." || trimmed.isEmpty { return "" }
        return trimmed == "/" ? "/" : trimmed + "/"
    }
}
