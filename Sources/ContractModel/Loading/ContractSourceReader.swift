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
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else {
            throw ReadError(message: "Cannot list the directory '\(directory)'")
        }
        var relativePaths: [String] = []
        let rootComponents = root.pathComponents
        for case let url as URL in enumerator where url.pathExtension == "json" {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let components = url.standardizedFileURL.pathComponents.dropFirst(rootComponents.count)
            relativePaths.append(components.joined(separator: "/"))
        }
        relativePaths.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let prefix = displayPrefix(directory)
        return relativePaths.map { relative in
            let path = prefix + relative
            do {
                let bytes = Array(try Data(contentsOf: root.appendingPathComponent(relative)))
                return SourceFile(path: path, relativePath: relative, bytes: bytes)
            } catch {
                return SourceFile(path: path, relativePath: relative, bytes: [], readError: "cannot read the file: \(error.localizedDescription)")
            }
        }
    }

    /// `contracts` and `contracts/` both display as `contracts/…`; `.` displays bare paths.
    static func displayPrefix(_ directory: String) -> String {
        var trimmed = directory
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." || trimmed.isEmpty { return "" }
        return trimmed == "/" ? "/" : trimmed + "/"
    }
}
