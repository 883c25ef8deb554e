import Foundation

/// The one way a command writes a file a person named (a report, a baseline, an ignore file):
/// the text goes to a new hidden file beside the destination, and ``commit(header:trailer:)``
/// puts the finished file in place with one `rename(2)`, so the path holds either the previous
/// file or the whole new one, never a part.
///
/// Never through a link: the hidden file is created with `O_CREAT | O_EXCL | O_NOFOLLOW`, so a
/// link or a file planted at its name (a pull request can commit `report.md.partial` as a link
/// to a file it wants overwritten) is removed as a name and never written through; the rename
/// replaces a link at the destination itself, not what it points to. A process told to stop
/// removes its hidden files first (``removePartialFiles()``).
///
/// Never over a device, a named pipe or a socket, or a link to one: the rename would put a file
/// where `/dev/null` or `/dev/stdout` was (run as root, a CI container's own). Such a path is
/// refused before anything is written.
public final class OutputFile {
    private let destination: String
    private let partial: String
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []
    /// The first failure; once set, nothing more is written and `commit` throws it.
    private var failure: FolderError?
    private static let flushSize = 1 << 16

    /// Starts the file that will replace `path`. A failure to start is thrown by `commit`, so a
    /// writer that streams as a run goes records it once, where the file is finished.
    public init(path: String) {
        destination = path
        if let refusal = Self.refusal(of: path) {
            failure = refusal
            partial = ""
            return
        }
        let url = URL(fileURLWithPath: path)
        // One name per output of this process: two outputs that name one file through different
        // paths (a linked folder) each write their own, and the last rename wins whole.
        let number = Self.registry.nextNumber()
        let name = "." + url.lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier)\(number == 0 ? "" : "-\(number)").partial"
        partial = url.deletingLastPathComponent().appendingPathComponent(name).path
        let partial = partial
        let opened = Self.registry.withFiles { paths -> Result<Int32, FolderError> in
            do throws(FolderError) {
                let descriptor = try Self.createNew(partial)
                paths.insert(partial)
                return .success(descriptor)
            } catch {
                return .failure(error)
            }
        }
        switch opened {
        case nil: failure = FolderError("the run was stopped")
        case .failure(let error)?: failure = error
        case .success(let descriptor)?: self.descriptor = descriptor
        }
    }

    deinit {
        // A writer that ended before `commit` leaves no hidden file behind.
        if descriptor >= 0 { close(descriptor) }
        let partial = partial
        guard !partial.isEmpty else { return }
        Self.registry.withFiles { paths in
            unlink(partial)
            paths.remove(partial)
        }
    }

    /// Writes `bytes` to `path` whole, as one file replacing what was there.
    public static func write(_ bytes: some Sequence<UInt8>, to path: String) throws(FolderError) {
        let file = OutputFile(path: path)
        file.append(bytes)
        try file.commit()
    }

    /// Writes `text` to `path` whole, as UTF-8.
    public static func write(_ text: String, to path: String) throws(FolderError) {
        try write(text.utf8, to: path)
    }

    public func append(_ text: String) {
        append(text.utf8)
    }

    public func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Ends the file with `trailer`, puts `header` in front of everything written, and renames it
    /// into place.
    public func commit(header: String = "", trailer: String = "") throws(FolderError) {
        append(trailer)
        flush()
        let (partial, destination) = (partial, destination)
        let outcome = Self.registry.withFiles { paths -> FolderError? in
            if failure == nil, !header.isEmpty { prepend(header) }
            if let failure { return failure }
            if descriptor >= 0 {
                let closed = close(descriptor)
                let code = errno
                descriptor = -1
                if closed != 0 { return FolderError.system("cannot close '\(partial)'", errno: code) }
            }
            // Asked again at the last moment: a device put at the path meanwhile is not replaced.
            if let refusal = Self.refusal(of: destination) { return refusal }
            // rename(2) replaces the destination in one step, a link there included (not its target).
            guard rename(partial, destination) == 0 else {
                let code = errno
                return FolderError.system("cannot rename '\(partial)' to '\(destination)'", errno: code)
            }
            paths.remove(partial)
            return nil
        }
        guard let outcome else { throw FolderError("the run was stopped") }
        if let outcome { throw outcome }
    }

    /// Removes the hidden file of every output still being written, and every temporary folder
    /// made (``TemporaryFolders``), for a process that is told to stop (SIGINT, SIGTERM) and will
    /// not reach `commit`. Nothing is written or renamed afterwards: call it only on the way out.
    public static func removePartialFiles() {
        registry.stop()
    }

    /// The hidden files of every output in progress. Every step that creates, renames or removes
    /// one holds its lock, so a process told to stop can remove them all with nothing racing it.
    static let registry = PartialFiles()

    /// Why a file may not be put at `path`: a device, a named pipe or a socket there, or a link to
    /// one. Nil for nothing there, a file, a folder (the rename says why not), or a link to
    /// anything else (the link is replaced).
    public static func refusal(of path: String) -> FolderError? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        var kind = info.st_mode & S_IFMT
        var link = ""
        if kind == S_IFLNK {
            guard stat(path, &info) == 0 else { return nil }
            kind = info.st_mode & S_IFMT
            link = "a link to "
        }
        let what: String
        switch kind {
        case S_IFCHR, S_IFBLK: what = "a device"
        case S_IFIFO: what = "a named pipe"
        case S_IFSOCK: what = "a socket"
        default: return nil
        }
        return FolderError("cannot write '\(path)': it is \(link)\(what), not a file (an output is a new file put in place of what is at its path); name a file")
    }

    /// Opens a new file at `path` for writing, never an existing one and never through a link: a
    /// name already there (a file a killed run left, or anything planted) is removed as a name first.
    static func createNew(_ path: String) throws(FolderError) -> Int32 {
        for attempt in 0..<2 {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return descriptor }
            let code = errno
            guard code == EEXIST, attempt == 0, unlink(path) == 0 || errno == ENOENT else {
                throw FolderError.system("cannot create '\(path)'", errno: code)
            }
        }
        throw FolderError.system("cannot create '\(path)'", errno: EEXIST)
    }

    private func flush() {
        guard failure == nil, descriptor >= 0, !buffer.isEmpty else { return }
        do throws(FolderError) {
            try FileSystem.writeAll(buffer, to: descriptor, path: partial)
            buffer.removeAll(keepingCapacity: true)
        } catch {
            failure = error
        }
    }

    /// Writes `header` and then the body into a second hidden file, which takes the first's place.
    private func prepend(_ header: String) {
        let whole = partial + ".whole"
        var output: Int32 = -1
        var input: Int32 = -1
        defer {
            if output >= 0 { close(output) }
            if input >= 0 { close(input) }
        }
        do throws(FolderError) {
            close(descriptor)
            descriptor = -1
            output = try Self.createNew(whole)
            try FileSystem.writeAll(Array(header.utf8), to: output, path: whole)
            input = open(partial, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard input >= 0 else {
                let code = errno
                throw FolderError.system("cannot read '\(partial)'", errno: code)
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                let code = errno
                if count < 0 && code == EINTR { continue }
                guard count >= 0 else { throw FolderError.system("cannot read '\(partial)'", errno: code) }
                if count == 0 { break }
                try FileSystem.writeAll(chunk[0..<count], to: output, path: whole)
            }
            guard rename(whole, partial) == 0 else {
                let code = errno
                throw FolderError.system("cannot rename '\(whole)' to '\(partial)'", errno: code)
            }
        } catch {
            unlink(whole)
            failure = error
        }
    }
}

/// The hidden files of a process's outputs in progress, and whether it was told to stop.
final class PartialFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: Set<String> = []
    private var folders: Set<String> = []
    private var stopped = false
    private var started = 0

    /// Adds or removes a temporary folder to remove on a stop; false once the process is stopping.
    func track(folder: String, _ tracked: Bool) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return false }
        if tracked { folders.insert(folder) } else { folders.remove(folder) }
        return true
    }

    /// 0 for the first output of the process, then 1, 2…
    func nextNumber() -> Int {
        lock.lock()
        defer { lock.unlock() }
        started += 1
        return started - 1
    }

    /// Runs `body` with the set of hidden files, under the lock; nil (and nothing run) once the
    /// process is stopping.
    @discardableResult
    func withFiles<Result>(_ body: (inout Set<String>) -> Result) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return nil }
        return body(&paths)
    }

    /// Removes every hidden file and keeps the lock: the process is about to end, and no step may
    /// create or rename a file after this.
    func stop() {
        lock.lock()
        stopped = true
        for path in paths {
            unlink(path)
            unlink(path + ".whole")
        }
        paths.removeAll()
        for folder in folders { FileSystem.removeTree(folder) }
        folders.removeAll()
    }
}

/// Folders a command makes for itself (a git revision's copy, say) and removes when it is done:
/// told of them, a process stopped by a signal removes them too, with the outputs' hidden files.
public enum TemporaryFolders {
    /// `path` is to be removed if the process is stopped; false if it is stopping already.
    @discardableResult
    public static func track(_ path: String) -> Bool {
        OutputFile.registry.track(folder: path, true)
    }

    /// `path` was removed (or is kept) by the command itself.
    public static func untrack(_ path: String) {
        _ = OutputFile.registry.track(folder: path, false)
    }
}
