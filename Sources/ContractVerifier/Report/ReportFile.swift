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
        let partial = partial
        let opened = Self.registry.withFiles { paths -> FileHandle? in
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else { return nil }
            paths.insert(partial.path)
            return try? FileHandle(forWritingTo: partial)
        }
        guard let handle = opened ?? nil else {
            failure = opened == nil ? "the run was stopped" : "cannot create '\(partial.path)'"
            return
        }
        self.handle = handle
    }

    deinit {
        // A run that ended before `commit` leaves no partial file behind.
        try? handle?.close()
        let partial = partial
        Self.registry.withFiles { paths in
            unlink(partial.path)
            paths.remove(partial.path)
        }
    }

    /// The partial files of every report in progress. Every step that creates, renames or removes
    /// one holds its lock, so a process told to stop can remove them all with nothing racing it.
    static let registry = ReportFileRegistry()

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
        let (partial, destination) = (partial, destination)
        let outcome = Self.registry.withFiles { paths -> String? in
            if failure == nil, !header.isEmpty { prepend(header) }
            if let failure { return failure }
            do {
                try handle?.close()
                handle = nil
            } catch {
                return error.localizedDescription
            }
            // rename(2) replaces the destination in one step.
            guard rename(partial.path, destination.path) == 0 else { return String(cString: strerror(errno)) }
            paths.remove(partial.path)
            return nil
        }
        guard let outcome else { throw ReportFileError(message: "the run was stopped") }
        if let outcome { throw ReportFileError(message: outcome) }
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
            guard rename(whole.path, body.path) == 0 else { throw ReportFileError(message: String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(at: whole)
            failure = error.localizedDescription
        }
    }
}

/// The partial report files of a process, and whether it was told to stop.
final class ReportFileRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var stopped = false

    /// Runs `body` with the set of partial files, under the lock; nil (and nothing run) once the
    /// process is stopping.
    @discardableResult
    func withFiles<Result>(_ body: (inout Set<String>) -> Result) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return nil }
        return body(&paths)
    }

    /// Removes every partial file and keeps the lock: the process is about to end, and no report
    /// step may create or rename a file after this.
    func stop() {
        lock.lock()
        stopped = true
        for path in paths {
            unlink(path)
            unlink(path + ".whole")
        }
        paths.removeAll()
    }
}

struct ReportFileError: Error {
    var message: String
}
