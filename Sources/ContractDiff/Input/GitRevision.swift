import ContractFiles
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
        /// An object the repository does not have: its id, and whether git said it is a
        /// partial clone's (git was asked for it, tried its promisor remote and was refused;
        /// nothing is ever fetched).
        case missing(id: String, partialClone: Bool)
        /// The tree lists more entries than `limit` (git was stopped there).
        case tooManyEntries(limit: Int)
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
        var isTree: Bool { type == "tree" }
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
        guard outcome.status == 0 else { throw failure("git cat-file -t \(id)", outcome) }
        return (id, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Every entry under the tree `id`, at any depth, subtrees included (`-t`, so a tree whose
    /// entries repeat a name shows it twice), in the tree's own order.
    /// The listing may take this many bytes per entry allowed, on average: a record is about 53
    /// bytes and a path (a real repository's run to a hundred or so), so 320 is far beyond use.
    static let listedBytesPerEntry = 320

    func entries(ofTree id: String, atMost limit: Int) throws(Failure) -> [Entry] {
        // --full-tree: run in a subfolder, ls-tree would list only what is under it.
        // Counted as it arrives, and git stopped past the limit: a tree of a few kilobytes can
        // list millions of entries (each level reusing the one below), and its listing alone
        // would take gigabytes.
        var output: [UInt8] = []
        var records = 0
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(git, gitOptions + ["ls-tree", "-r", "-t", "-z", "--full-tree", id], in: runDirectory, environment: environment) {
                (piece: UnsafeRawBufferPointer) -> Bool in
                records += piece.reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
                // Long names make few entries large: the listing's bytes are bounded too.
                guard records <= limit, output.count + piece.count <= limit * Self.listedBytesPerEntry else { return false }
                output.append(contentsOf: piece)
                return true
            }
        } catch {
            throw .failed("cannot run \(git): \(error.message)")
        }
        guard !outcome.stoppedReading else { throw .tooManyEntries(limit: limit) }
        guard outcome.status == 0 else { throw failure("git ls-tree \(id)", outcome) }
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

    /// The size of each blob in `ids`, in that order, asked of git without reading any
    /// (`git cat-file --batch-check`), so a caller refuses what is too large before a byte of it
    /// is read.
    func sizes(of ids: [String]) throws(Failure) -> [Int] {
        guard !ids.isEmpty else { return [] }
        let list = try Self.unlinkedFile(holding: Array(ids.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")], in: temporaryRoot)
        defer { close(list) }
        var output: [UInt8] = []
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(git, gitOptions + ["cat-file", "--batch-check"], in: runDirectory, environment: environment, input: list) {
                output.append(contentsOf: $0)
            }
        } catch {
            throw .failed("cannot run \(git): \(error.message)")
        }
        guard outcome.status == 0 else { throw failure("git cat-file --batch-check", outcome) }
        var sizes: [Int] = []
        sizes.reserveCapacity(ids.count)
        for line in output.split(separator: UInt8(ascii: "\n")) {
            // `<id> SP <type> SP <size>`, or `<id> SP missing`.
            let fields = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
            guard sizes.count < ids.count, fields.first == ids[sizes.count] else {
                throw .failed("git cat-file --batch-check: unexpected output '\(fields.joined(separator: " "))'")
            }
            if fields.count == 2, fields[1] == "missing" { throw .missing(id: fields[0], partialClone: false) }
            guard fields.count == 3, fields[1] == "blob", let size = Int(fields[2]), size >= 0 else {
                throw .failed("git cat-file --batch-check: object \(fields[0]) is \(fields.dropFirst().joined(separator: " "))")
            }
            sizes.append(size)
        }
        guard sizes.count == ids.count else {
            throw .failed("git cat-file --batch-check: its output ended after \(sizes.count) of \(ids.count) objects")
        }
        return sizes
    }

    /// What reading took: `read` calls on git's output and the bytes they returned (how a test
    /// sees that reading is linear in what is read).
    struct ReadWork: Sendable {
        var reads = 0
        var bytes = 0
    }

    /// The bytes of each blob in `ids`, in that order (an id may repeat), streamed to `sink`: one
    /// `.start(index)` for each, then its bytes in pieces, then `.end`. `sizes` are the ones
    /// ``sizes(of:)`` gave: a blob git then says is of another size fails the read before any
    /// of its bytes reach `sink`.
    @discardableResult
    func readBlobs(_ ids: [String], sizes: [Int], into sink: (BlobEvent) -> Void) throws(Failure) -> ReadWork {
        guard !ids.isEmpty else { return ReadWork() }
        let list = try Self.unlinkedFile(holding: Array(ids.joined(separator: "\n").utf8) + [UInt8(ascii: "\n")], in: temporaryRoot)
        defer { close(list) }
        var parser = BatchParser(sizes: sizes)
        let outcome: Subprocess.Outcome
        do {
            outcome = try Subprocess.run(git, gitOptions + ["cat-file", "--batch"], in: runDirectory, environment: environment, input: list) {
                parser.feed($0, to: sink)
            }
        } catch {
            throw .failed("cannot run \(git): \(error.message)")
        }
        guard outcome.status == 0 else { throw failure("git cat-file --batch", outcome) }
        if let problem = parser.problem ?? (parser.index < ids.count ? "its output ended after \(parser.index) of \(ids.count) objects" : nil) {
            throw .failed("git cat-file --batch: \(problem)")
        }
        return ReadWork(reads: outcome.outputReads, bytes: outcome.outputBytes)
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
            throw failure("git rev-parse \(specification)", outcome)
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

    /// What git failing means: an object it does not have (a partial clone's, which it was not
    /// let fetch, names it: `could not fetch <id> from promisor remote`), or `what` failed and why.
    private func failure(_ what: String, _ outcome: Subprocess.Outcome) -> Failure {
        let text = String(decoding: outcome.standardError, as: UTF8.self)
        if let match = text.firstMatch(of: /could not fetch ([0-9a-f]{40,64}) from promisor remote/) {
            return .missing(id: String(match.output.1), partialClone: true)
        }
        return .failed("\(what): \(outcome.errorText.isEmpty ? "status \(outcome.status)" : outcome.errorText)")
    }

    /// Without posix_spawn_file_actions_addchdir_np, `git -C` changes the directory instead.
    private var runDirectory: String? { Subprocess.canSetDirectory ? directory : nil }
    /// No protocol, whatever the configuration says (see `environment`; a command line's `-c`
    /// reaches the git it runs, as a fetch would be, but a repository's `protocol.<name>.allow`
    /// outranks `protocol.allow`, which is why the environment's list is what holds).
    private var gitOptions: [String] { ["-c", "protocol.allow=never"] + (Subprocess.canSetDirectory ? [] : ["-C", directory]) }

    /// This process's environment, and git never asks for anything (no credential prompt), takes
    /// no optional lock (reading never blocks a `git` the user runs meanwhile), and never reaches
    /// a remote: a partial clone's missing object is not fetched (`GIT_NO_LAZY_FETCH`, git 2.39.4
    /// and later) and no transport may run at all (`GIT_ALLOW_PROTOCOL` empty: a list naming no
    /// protocol, which overrides every `protocol.*` setting, the repository's own included), so
    /// neither `remote.*.uploadpack` nor an `ext::` or helper remote runs a program.
    private var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment["GIT_PAGER"] = "cat"
        environment["GIT_NO_LAZY_FETCH"] = "1"
        environment["GIT_ALLOW_PROTOCOL"] = ""
        environment["GIT_PROTOCOL_FROM_USER"] = "0"
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
    /// Each object's size, as `git cat-file --batch-check` gave it.
    let sizes: [Int]
    var count: Int { sizes.count }
    /// Objects started so far.
    private(set) var index = 0
    private(set) var problem: String?
    private var header: [UInt8] = []
    /// Bytes of the current object still to come; nil while reading a header.
    private var remaining: Int?
    /// The line feed after an object's bytes is still to come.
    private var trailer = false

    init(sizes: [Int]) {
        self.sizes = sizes
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
            guard size == sizes[index] else {
                problem = "object \(fields[0]) is \(size) bytes, where git said \(sizes[index]) before"
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
        // A diff stopped by a signal removes it too.
        guard TemporaryFolders.track(path) else {
            rmdir(path)
            throw WriteError(message: "the run was stopped")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
        TemporaryFolders.untrack(path)
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
