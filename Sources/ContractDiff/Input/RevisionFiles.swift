import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much `contract diff` reads from a git revision. The loader sets no limit on a file it
/// reads from disk; a revision is anyone's commit, so one is set here, far beyond any real
/// contracts tree or OpenAPI document (the largest public documents are tens of MiB): each
/// blob's size is asked of git before a byte of it is read, and a revision over any limit is
/// refused whole, nothing read.
struct RevisionLimits: Sendable {
    /// The largest file: 256 MiB.
    var fileSize: Int
    /// All the files read from one revision together: 1 GiB.
    var totalSize: Int
    /// The files read from one revision: 200,000 (ten times the largest tree the tests read).
    var fileCount: Int
    /// Every entry the tree lists, folders and files not read included: 400,000. Counted as git
    /// lists them, so a small tree whose levels reuse one another (millions of entries in a few
    /// kilobytes) is refused before its listing is held.
    var entryCount: Int = 400_000

    static let standard = RevisionLimits(fileSize: 256 << 20, totalSize: 1 << 30, fileCount: 200_000)

    /// Why these files may not be read (as a message's end), or nil when they may.
    func problem(with files: [(path: String, size: Int)]) -> String? {
        if files.count > fileCount {
            return "it has \(files.count == 1 ? "1 file" : "\(files.count) files") to read, more than the \(fileCount) contract diff reads from a revision"
        }
        if let large = files.first(where: { $0.size > fileSize }) {
            return "'\(large.path)' is \(large.size) bytes at that revision, more than the \(Self.describe(fileSize)) contract diff reads from a revision in one file"
        }
        let total = files.reduce(0) { $0 + $1.size }
        if total > totalSize {
            return "its \(files.count) files come to \(total) bytes at that revision, more than the \(Self.describe(totalSize)) contract diff reads from a revision"
        }
        return nil
    }

    /// `256 MiB (268435456 bytes)`, or `1000 bytes`.
    static func describe(_ bytes: Int) -> String {
        for (unit, name) in [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] where bytes >= unit && bytes % unit == 0 {
            return "\(bytes / unit) \(name) (\(bytes) bytes)"
        }
        return "\(bytes) bytes"
    }
}

/// What a tree listed by ``GitRepository/entries(ofTree:)`` may hold for `contract diff` to read
/// anything from it: only what git itself would check out.
enum RevisionTree {
    /// Why the tree is refused (as a message's end), or nil. A name that is empty, `.`, `..`,
    /// `.git` or holds a `/` (a path whose folders are not all trees of the listing), and a name twice in
    /// one folder (`git fsck`: duplicateEntries), which lets a link and a folder share a path so
    /// that the folder's files would be written where the link leads.
    static func problem(in entries: [GitRepository.Entry]) -> String? {
        var paths: Set<String> = []
        var folders: Set<Substring> = [""]
        for entry in entries {
            guard paths.insert(entry.path).inserted else {
                return "has two entries named '\(entry.path)' in one folder (git fsck: duplicateEntries), which git never checks out"
            }
            if entry.isTree { folders.insert(Substring(entry.path)) }
        }
        for entry in entries {
            let components = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            let folder = entry.path.lastIndex(of: "/").map { entry.path[..<$0] } ?? ""
            // `.git` in any case: git never checks one out (git fsck: hasDotgit).
            if components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.lowercased() == ".git" }) || !folders.contains(folder) {
                return "has an entry named '\(entry.path)', which git never checks out"
            }
        }
        return nil
    }
}

/// The work of reading blobs into memory, for a test to see it is linear in the bytes read.
struct RevisionReadWork: Sendable {
    /// `read` calls on git's output, and the bytes they returned.
    var reads = 0
    var bytesRead = 0
    /// Bytes copied into the files' buffers, and how often a buffer had to be moved to grow.
    var bytesCopied = 0
    var reallocations = 0
}

/// Files of a revision read into memory: each buffer made its blob's exact size before its bytes
/// arrive (git gave the size), so each byte is copied once, from the pipe into its buffer.
enum RevisionFiles {
    static func read(_ ids: [String], sizes: [Int], from repository: GitRepository) throws(GitRepository.Failure) -> (contents: [[UInt8]], work: RevisionReadWork) {
        var contents = [[UInt8]](repeating: [], count: ids.count)
        var work = RevisionReadWork()
        var current = 0
        let read = try repository.readBlobs(ids, sizes: sizes) { event in
            switch event {
            case .start(let index):
                current = index
                contents[index].reserveCapacity(sizes[index])
            case .bytes(let bytes):
                let capacity = contents[current].capacity
                bytes.withMemoryRebound(to: UInt8.self) { contents[current].append(contentsOf: $0) }
                work.bytesCopied += bytes.count
                if contents[current].capacity != capacity { work.reallocations += 1 }
            case .end: break
            }
        }
        work.reads = read.reads
        work.bytesRead = read.bytes
        return (contents, work)
    }
}

/// A folder being filled with a tree's files and links, where every folder, file and link is
/// made by name relative to a descriptor of its parent folder, each folder opened with
/// `O_NOFOLLOW | O_DIRECTORY` and each file created with `O_CREAT | O_EXCL | O_NOFOLLOW`: no
/// path is ever resolved through a link, so nothing can be written through one, whatever the
/// tree holds. Links are made only after the last file is written, and folders and files are
/// never made twice (a second one of a name, as a file system that folds case would see it, is
/// an error, not a reuse).
final class RevisionCopy {
    struct Failure: Error {
        var message: String
    }

    private let root: Int32
    /// The folders open below the root, outermost first: those of the last path asked for.
    private var chain: [(name: Substring, descriptor: Int32)] = []
    /// Folders made, relative to the root.
    private var made: Set<String> = []

    /// `path` must be a folder this process made (`mkdtemp`); the path to it is followed as the
    /// person's system has it (`TMPDIR` may be a link), nothing inside it is.
    init(_ path: String) throws(Failure) {
        root = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard root >= 0 else { throw Failure(message: "cannot open \(path): \(Self.errorText())") }
    }

    deinit {
        for folder in chain { close(folder.descriptor) }
        close(root)
    }

    /// A new file at `path` (relative, `/` separated), open for writing.
    func createFile(_ path: String) throws(Failure) -> Int32 {
        let (parent, name) = try place(path)
        let descriptor = openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(message: "cannot create \(path): \(Self.errorText())") }
        return descriptor
    }

    /// A new link at `path` leading to `destination`, as written.
    func createLink(_ path: String, to destination: String) throws(Failure) {
        let (parent, name) = try place(path)
        guard symlinkat(destination, parent, name) == 0 else { throw Failure(message: "cannot create the link \(path): \(Self.errorText())") }
    }

    /// Removes the link at `path`, as a link.
    func removeLink(_ path: String) throws(Failure) {
        let (parent, name) = try place(path)
        guard unlinkat(parent, name, 0) == 0 else { throw Failure(message: "cannot remove the link \(path): \(Self.errorText())") }
    }

    /// The descriptor of the folder `path` is in (made when missing), and its last name.
    private func place(_ path: String) throws(Failure) -> (Int32, String) {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = components.last, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw Failure(message: "'\(path)' is not a path inside the folder")
        }
        return (try folder(components.dropLast()), String(name))
    }

    /// The descriptor of the folder `components` names, each folder on the way opened from the
    /// one before without following a link, and made when this copy has not made it yet.
    private func folder(_ components: ArraySlice<Substring>) throws(Failure) -> Int32 {
        var common = 0
        while common < chain.count, common < components.count, chain[common].name == components[components.startIndex + common] { common += 1 }
        while chain.count > common { close(chain.removeLast().descriptor) }
        for index in common..<components.count {
            let parent = chain.last?.descriptor ?? root
            let name = String(components[components.startIndex + index])
            let relative = components.prefix(index + 1).joined(separator: "/")
            if !made.contains(relative) {
                guard mkdirat(parent, name, 0o700) == 0 else { throw Failure(message: "cannot create the folder \(relative): \(Self.errorText())") }
                made.insert(relative)
            }
            let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(message: "cannot open the folder \(relative): \(Self.errorText())") }
            chain.append((components[components.startIndex + index], descriptor))
        }
        return chain.last?.descriptor ?? root
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
