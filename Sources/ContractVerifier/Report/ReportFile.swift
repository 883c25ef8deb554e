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
    private var failure: ReportFileError?
    private static let flushSize = 1 << 16

    init(path: String) {
        destination = URL(fileURLWithPath: path)
        let name = "." + destination.lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier).partial"
        partial = destination.deletingLastPathComponent().appendingPathComponent(name)
        let partial = partial
        let opened = Self.registry.withFiles { paths -> Result<FileHandle, ReportFileError> in
            // open(2) rather than FileManager, so the reason (no such folder, permission denied…)
            // is the call's own errno; never through a link planted at the partial file's name.
            let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                let code = errno
                return .failure(.system("cannot create '\(partial.path)'", errno: code))
            }
            paths.insert(partial.path)
            return .success(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
        }
        switch opened {
        case nil: failure = ReportFileError(message: "the run was stopped")
        case .failure(let error)?: failure = error
        case .success(let handle)?: self.handle = handle
        }
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
        let outcome = Self.registry.withFiles { paths -> ReportFileError? in
            if failure == nil, !header.isEmpty { prepend(header) }
            if let failure { return failure }
            do {
                try handle?.close()
                handle = nil
            } catch {
                return ReportFileError(message: "cannot close '\(partial.path)': \(error.localizedDescription)", underlying: error)
            }
            // rename(2) replaces the destination in one step.
            guard rename(partial.path, destination.path) == 0 else {
                let code = errno
                return .system("cannot rename '\(partial.path)' to '\(destination.path)'", errno: code)
            }
            paths.remove(partial.path)
            return nil
        }
        guard let outcome else { throw ReportFileError(message: "the run was stopped") }
        if let outcome { throw outcome }
    }

    private func flush() {
        guard failure == nil, let handle, !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
            buffer.removeAll(keepingCapacity: true)
        } catch {
            failure = ReportFileError(message: "cannot write '\(partial.path)': \(error.localizedDescription)", underlying: error)
        }
    }

    /// Writes `header` and then the body into a second partial file, which takes the first's place.
    private func prepend(_ header: String) {
        let body = partial
        let whole = partial.appendingPathExtension("whole")
        // What was being done when a call threw, for the message.
        var step = "cannot close '\(body.path)'"
        do {
            try handle?.close()
            handle = nil
            step = "cannot create '\(whole.path)'"
            let descriptor = open(whole.path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw ReportFileError.system(step, errno: errno) }
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? output.close() }
            step = "cannot write '\(whole.path)'"
            try output.write(contentsOf: Data(header.utf8))
            step = "cannot read '\(body.path)'"
            let input = try FileHandle(forReadingFrom: body)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                step = "cannot write '\(whole.path)'"
                try output.write(contentsOf: chunk)
                step = "cannot read '\(body.path)'"
            }
            guard rename(whole.path, body.path) == 0 else {
                let code = errno
                throw ReportFileError.system("cannot rename '\(whole.path)' to '\(body.path)'", errno: code)
            }
        } catch let error as ReportFileError {
            unlink(whole.path)
            failure = error
        } catch {
            unlink(whole.path)
            failure = ReportFileError(message: "\(step): \(error.localizedDescription)", underlying: error)
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

/// Why a report file could not be written: what and where, then why, with the cause kept.
struct ReportFileError: Error {
    /// `cannot create '/out/.r.json.42.partial': No such file or directory`.
    var message: String
    /// The cause: a `POSIXError` for a system call, or the error Foundation threw; nil for a run
    /// that was stopped.
    var underlying: (any Error)?

    init(message: String, underlying: (any Error)? = nil) {
        self.message = message
        self.underlying = underlying
    }

    /// `what` failed with the system error `code` (read `errno` straight after the call).
    static func system(_ what: String, errno code: Int32) -> ReportFileError {
        let underlying: any Error = POSIXErrorCode(rawValue: code).map { POSIXError($0) } ?? NSError(domain: NSPOSIXErrorDomain, code: Int(code))
        return ReportFileError(message: "\(what): \(String(cString: strerror(code)))", underlying: underlying)
    }
}
