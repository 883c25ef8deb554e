import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The git repository a folder is in, read through the `git` on PATH (plumbing commands only, run
/// in that folder): which commit a revision names, what a path is at that commit, the files of a
/// tree, and their bytes, streamed (`git cat-file --batch`), so a tree of any size is read
/// without holding git's whole output at once.
struct GitRepository {
    enum Failure: Error, Sendable {
        /// No `git` on PATH.
        case gitNotFound
        /// `git rev-parse --git-dir` failed: git's own words (not a repository, dubious ownership…).
        case notARepository(String)
        /// Git ran and failed, or could not be started: what it was doing, and why.
        case failed(String)
    }

    /// The kind of a tree entry or object: `blob`, `tree`, `commit` (a submodule).
    struct Entry: Sendable {
        var mode: String
        var type: String
        var id: String
        /// Relative to the tree listed, `/` separated.
        var path: String

        var isSymbolicLink: Bool { mode == "120000" }
        var isFile: Bool { type == "blob" && !isSymbolicLink }
    }

    /// Where git runs (the working directory of every command).
    let directory: String
    let git: String
    /// Where the list of objects `readBlobs` asks for is kept while git reads it (unnamed at once).
    let temporaryRoot: String

    /// - Parameter program: the program to find on PATH (tests name one that is nowhere).
    init(directory: String, program: String = "git", temporaryRoot: String = TemporaryFolder.systemRoot) throws(Failure) {
        self.directory = directory
        self.temporaryRoot = temporaryRoot
        guard let git = Self.find(program) else { throw .gitNotFound }
        self.git = git
    }

    /// Fails unless `directory` is in a repository git can read.
    func checkRepository() throws(Failure) {
        let (outcome, _) = try capture(["rev-parse", "--git-dir"])
        guard outcome.status == 0 else {
            throw .notARepository(outcome.errorText.isEmpty ? "git rev-parse exited with status \(outcome.status)" : outcome.errorText)
        }
    }

    /// The commit `revision` names (a tag peeled), or nil when it names none.
    func commit(_ revision: String) throws(Failure) -> String? {
        // A revision starting with `-` would be read as an option.
        guard !revision.hasPrefix("-") else { return nil }
        return try objectID("\(revision)^{commit}")
    }

    /// The current folder's path from the repository's root (`api/`), empty at the root.
    func prefix() throws(Failure) -> String {
        let (outcome, output) = try capture(["rev-parse", "--show-prefix"])
        guard outcome.status == 0 else { throw .failed("git rev-parse --show-prefix: \(outcome.errorText)") }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// The object at `path` (from the repository's root; empty: the root) in `commit`, with its
    /// type, or nil when the commit has nothing there.
    func object(at path: String, in commit: String) throws(Failure) -> (id: String, type: String)? {
        guard let id = try objectID("\(commit):\(path)") else { return nil }
        let (outcome, output) = try capture(["cat-file", "-t", id])
        guard outcome.status == 0 else { throw .failed("git cat-file -t \(id): \(outcome.errorText)") }
        return (id, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Every entry under the tree `id`, at any depth (subtrees themselves left out).
    func entries(ofTree id: String) throws(Failure) -> [Entry] {
        // --full-tree: run in a subfolder, ls-tree would list only what is under it.
        let (outcome, output) = try capture(["ls-tree", "-r", "-z", "--full-tree", id])
        guard outcome.status == 0 else { throw .failed("git ls-tree \(id): \(outcome.errorText)") }
        var entries: [Entry] = []
        for record in output.split(separator: 0) {
            // `<mode> SP <type> SP <id> TAB <path>`
            guard let tab = record.firstIndex(of: UInt8(ascii: "\t")) else { continue }
            let fields = record[record.startIndex..<tab].split(separator: UInt8(ascii: " "))
            guard fields.count == 3 else { continue }
            entries.append(Entry(
                mode: String(decoding: fields[0], as: UTF8.self), type: String(decoding: fields[1], as: UTF8.self),
                id: String(decoding: fields[2], as: UTF8.self), path: String(decoding: record[(tab + 1)...], as: UTF8.self)))
        }
        return entries
    }

    /// The bytes of each blob in `ids`, in that order (an id may repeat), streamed to `sink`: one
    /// `.start(index)` for each, then its bytes in pieces, then `.end`.
    func readBlobs(_ ids: [String], into sink: (BlobEvent) -> Void) throws(Failure) {
        guard !ids.isEmpty else { return }
        let list = try Self.unlinkedFile(holding: Array(ids.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")], in: temporaryRoot)
        defer { close(list) }
        var parser = BatchParser(count: ids.count)
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(git, ["cat-file", "--batch"], in: runDirectory, environment: environment, input: list) { parser.feed($0, to: sink) }
        } catch {
            throw .failed("cannot run \(git): \(error.message)")
        }
        guard outcome.status == 0 else { throw .failed("git cat-file --batch: \(outcome.errorText)") }
        if let problem = parser.problem ?? (parser.index < ids.count ? "its output ended after \(parser.index) of \(ids.count) objects" : nil) {
            throw .failed("git cat-file --batch: \(problem)")
        }
    }

    enum BlobEvent {
        case start(Int)
        case bytes(UnsafeRawBufferPointer)
        case end
    }

    // MARK: Running git

    private func objectID(_ specification: String) throws(Failure) -> String? {
        let (outcome, output) = try capture(["rev-parse", "--verify", "--quiet", specification])
        guard outcome.status == 0 else {
            // --quiet: a name that names nothing is status 1 and no message; anything else is git failing.
            if outcome.status == 1 && outcome.errorText.isEmpty { return nil }
            throw .failed("git rev-parse \(specification): \(outcome.errorText.isEmpty ? "status \(outcome.status)" : outcome.errorText)")
        }
        let id = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }

    private func capture(_ arguments: [String]) throws(Failure) -> (Subprocess.Outcome, [UInt8]) {
        do {
            return try Subprocess.capture(git, gitOptions + arguments, in: runDirectory, environment: environment)
        } catch {
            throw .failed("cannot run \(git): \(error.message)")
        }
    }

    /// Without posix_spawn_file_actions_addchdir_np, `git -C` changes the directory instead.
    private var runDirectory: String? { Subprocess.canSetDirectory ? directory : nil }
    private var gitOptions: [String] { Subprocess.canSetDirectory ? [] : ["-C", directory] }

    /// This process's environment, and git never asks for anything (no credential prompt) and
    /// takes no optional lock (reading never blocks a `git` the user runs meanwhile).
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment["GIT_PAGER"] = "cat"
        return environment
    }

    /// `program` itself when it has a `/`, else the first executable of that name on PATH.
    private static func find(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var status = stat()
            if stat(candidate, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// A descriptor on a file holding `bytes`, positioned at its start, whose name is gone
    /// before this returns: nothing is left behind in the temporary folder, whatever happens.
    private static func unlinkedFile(holding bytes: [UInt8], in root: String) throws(Failure) -> Int32 {
        var template = Array((root + "/contract-diff-objects-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw .failed("cannot create a file in \(root): \(String(cString: strerror(errno)))") }
        unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        // Above the standard descriptors, close-on-exec: only the child given it reads it.
        let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        close(descriptor)
        guard moved >= 0 else { throw .failed("cannot create a file in \(root): \(String(cString: strerror(errno)))") }
        do {
            try TemporaryFolder.write(bytes, to: moved)
        } catch {
            close(moved)
            throw .failed("cannot write a file in \(root): \(error.message)")
        }
        lseek(moved, 0, SEEK_SET)
        return moved
    }
}

/// Reads the output of `git cat-file --batch` as it arrives: for each object asked for,
/// `<id> SP <type> SP <size> LF <bytes> LF`, or `<id> SP missing LF`.
private struct BatchParser {
    let count: Int
    /// Objects started so far.
    private(set) var index = 0
    private(set) var problem: String?
    private var header: [UInt8] = []
    /// Bytes of the current object still to come; nil while reading a header.
    private var remaining: Int?
    /// The line feed after an object's bytes is still to come.
    private var trailer = false

    init(count: Int) {
        self.count = count
    }

    mutating func feed(_ piece: UnsafeRawBufferPointer, to sink: (GitRepository.BlobEvent) -> Void) {
        var position = 0
        while position < piece.count, problem == nil {
            if trailer {
                trailer = false
                position += 1
                continue
            }
            if let left = remaining {
                let take = min(left, piece.count - position)
                if take > 0 { sink(.bytes(UnsafeRawBufferPointer(rebasing: piece[position..<(position + take)]))) }
                position += take
                if left == take {
                    remaining = nil
                    trailer = true
                    sink(.end)
                } else {
                    remaining = left - take
                }
                continue
            }
            guard let lineFeed = piece[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                header.append(contentsOf: piece[position...])
                position = piece.count
                break
            }
            header.append(contentsOf: piece[position..<lineFeed])
            position = lineFeed + 1
            let fields = header.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            header.removeAll(keepingCapacity: true)
            guard index < count else {
                problem = "more objects than asked for"
                return
            }
            guard fields.count == 3, fields[1] == "blob", let size = Int(fields[2]), size >= 0 else {
                problem = "object \(fields.first ?? "?") is \(fields.dropFirst().joined(separator: " "))"
                return
            }
            sink(.start(index))
            index += 1
            if size == 0 {
                trailer = true
                sink(.end)
            } else {
                remaining = size
            }
        }
    }
}

/// A folder made in the system's temporary folder and removed with everything in it.
struct TemporaryFolder {
    struct WriteError: Error {
        var message: String
    }

    /// `TMPDIR`, else `/tmp`.
    static var systemRoot: String {
        var root = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while root.count > 1, root.hasSuffix("/") { root.removeLast() }
        return root
    }

    let path: String

    init(in root: String) throws(WriteError) {
        var template = Array((root + "/contract-diff-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) != nil else {
            throw WriteError(message: "cannot create a folder in \(root): \(String(cString: strerror(errno)))")
        }
        // mkdtemp filled in the X's; the array still ends in its NUL.
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    static func write(_ bytes: [UInt8], to descriptor: Int32) throws(WriteError) {
        let failure = bytes.withUnsafeBytes { buffer -> WriteError? in
            do throws(WriteError) {
                try write(buffer, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(WriteError) {
        var offset = 0
        guard let base = bytes.baseAddress else { return }
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw WriteError(message: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif
