import Foundation

/// A report file written as the run goes: text is appended to a temporary file beside the
/// destination, and `commit` puts the finished file in place with one rename, so the path holds
/// either the previous report or a whole new one, never a partial one.
final class ReportFile {
    private let destination: URL
    private let partial: URL
    private var handle: FileHandle?
    private var buffer: [UInt8] = []
    /// The first failure; once set, nothing more is written and `commit` throws it.
    private var failure: String?
    private static let flushSize = 1 << 16

    init(path: String) {
        destination = URL(fileURLWithPath: path)
        let name = "." + destination.lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier).partial"
        partial = destination.deletingLastPathComponent().appendingPathComponent(name)
        Self.inProgress.insert(partial.path)
        guard FileManager.default.createFile(atPath: partial.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: partial)
        else {
            failure = "cannot create '\(partial.path)'"
            return
        }
        self.handle = handle
    }

    deinit {
        // A run that ended before `commit` leaves no partial file behind.
        try? handle?.close()
        try? FileManager.default.removeItem(at: partial)
        Self.inProgress.remove(partial.path)
    }

    /// Every partial file not yet committed or removed, for a process told to stop.
    static let inProgress = PathSet()

    /// Removes every report file still being written (the run was interrupted).
    static func removeAllInProgress() {
        for path in inProgress.removeAll() {
            unlink(path)
            unlink(path + ".whole")
        }
    }

    func append(_ text: String) {
        guard failure == nil, !text.isEmpty else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Ends the file with `trailer`, puts `header` in front of everything written, and renames it
    /// into place.
    func commit(header: String, trailer: String) throws(ReportFileError) {
        append(trailer)
        flush()
        if failure == nil, !header.isEmpty { prepend(header) }
        if let failure { throw ReportFileError(message: failure) }
        do {
            try handle?.close()
            handle = nil
        } catch {
            throw ReportFileError(message: error.localizedDescription)
        }
        // rename(2) replaces the destination in one step.
        guard rename(partial.path, destination.path) == 0 else {
            throw ReportFileError(message: String(cString: strerror(errno)))
        }
    }

    private func flush() {
        guard failure == nil, let handle, !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        } catch {
            failure = error.localizedDescription
        }
    }

    /// Writes `header` and then the body into a second partial file, which takes the first's place.
    private func prepend(_ header: String) {
        let body = partial
        let whole = partial.appendingPathExtension("whole")
        do {
            try handle?.close()
            handle = nil
            guard FileManager.default.createFile(atPath: whole.path, contents: Data(header.utf8)) else {
                failure = "cannot create '\(whole.path)'"
                return
            }
            let output = try FileHandle(forWritingTo: whole)
            defer { try? output.close() }
            try output.seekToEnd()
            let input = try FileHandle(forReadingFrom: body)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
            try FileManager.default.removeItem(at: body)
            try FileManager.default.moveItem(at: whole, to: body)
        } catch {
            try? FileManager.default.removeItem(at: whole)
            failure = error.localizedDescription
        }
    }
}

/// Paths, from any thread.
final class PathSet: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []

    func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
    func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }
    func removeAll() -> Set<String> { lock.withLock { defer { paths.removeAll() }; return paths } }
}

struct ReportFileError: Error {
    var message: String
}
