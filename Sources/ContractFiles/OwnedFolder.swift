import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output folder of which a command owns some files (listed in its manifest) and a person may
/// own the rest: `contract fixtures --out` and `contract import openapi --out`.
///
/// A change is all or nothing. The new contents are built in a sibling folder — the files written
/// anew, and a hard link (or copy) of every other file, link and folder that stays — and the two
/// folders are then exchanged in one `renameat2(RENAME_EXCHANGE)` (`renamex_np(RENAME_SWAP)` on
/// macOS). A process killed at any moment leaves the old contents or the new ones, never a mix;
/// what it leaves beside the folder (``leftovers()``) the next change removes.
///
/// Nothing follows a symbolic link inside the folder: links are read and recreated as links, a
/// path with a link on the way is refused, and no path can leave the folder (``FolderPath``).
public struct OwnedFolder: Sendable {
    /// The folder, its own symbolic links resolved (the person who named it chose them).
    public let path: String
    private let parent: String
    private let name: String

    /// Names of the sibling folders a change builds in (`.<name>.contract-swap-<pid>`) and,
    /// where a file system cannot exchange two folders, keeps the old contents in for a moment
    /// (`.<name>.contract-old-<pid>`). No other files are ever made outside the folder.
    static let swapMark = ".contract-swap-"
    static let oldMark = ".contract-old-"
    /// Temporary files an earlier version of this tool staged beside each file, named
    /// `.<file>.contract-tmp`: hidden ones only, so a person's `draft.contract-tmp` is theirs.
    static let temporarySuffix = ".contract-tmp"

    static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
    }

    public init(path: String) {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        let parentURL = absolute.deletingLastPathComponent()
        // The parent's links resolved (realpath) where it exists: the swap happens beside the real folder.
        let resolvedParent = parentURL.path.withCString { realpath($0, nil) }.map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? parentURL.path
        var name = absolute.lastPathComponent
        var parent = resolvedParent
        // The folder itself may be a link the person made (`Fixtures -> ../shared/fixtures`).
        let given = (resolvedParent as NSString).appendingPathComponent(name)
        if FileSystem.kind(given) == .link, let target = given.withCString({ realpath($0, nil) }) {
            let resolved = URL(fileURLWithPath: String(cString: target))
            free(target)
            name = resolved.lastPathComponent
            parent = resolved.deletingLastPathComponent().path
        }
        self.parent = parent
        self.name = name
        self.path = (parent as NSString).appendingPathComponent(name)
    }

    private func absolute(_ relative: FolderPath) -> String {
        path + "/" + relative.description
    }

    // MARK: Reading

    /// What stands in the way of a file at `relative`: a link, a file or anything but a folder
    /// on the way, or something that is not a file (or link) at the path itself. Nil when the
    /// path is free or holds a file.
    public func obstacle(at relative: FolderPath) -> String? {
        obstacle(at: relative, ignoring: [])
    }

    /// The same, as if the files and links at `removed` were gone.
    private func obstacle(at relative: FolderPath, ignoring removed: Set<FolderPath>) -> String? {
        for ancestor in relative.ancestors {
            if removed.contains(ancestor) { return nil }
            switch FileSystem.kind(absolute(ancestor)) {
            case .missing: return nil
            case .directory: continue
            case .link: return "\(absolute(ancestor)) is a symbolic link; nothing is ever written through a link, so remove it"
            case .file, .other: return "\(absolute(ancestor)) is a file, where a folder is needed"
            }
        }
        switch FileSystem.kind(absolute(relative)) {
        case .missing, .file: return nil
        case .link: return "\(absolute(relative)) is a symbolic link; nothing is ever written through a link, so remove it"
        case .directory: return "\(absolute(relative)) is a folder, where a file is needed"
        case .other: return "\(absolute(relative)) is not a regular file"
        }
    }

    /// Whether a file or a link stands at `relative` (through real folders only).
    public func exists(_ relative: FolderPath) -> Bool {
        guard relative.ancestors.allSatisfy({ FileSystem.kind(absolute($0)) == .directory }) else { return false }
        return FileSystem.kind(absolute(relative)) != .missing
    }

    /// The bytes of the file at `relative`, or nil when there is none or a link is on the way.
    public func read(_ relative: FolderPath) -> [UInt8]? {
        guard relative.ancestors.allSatisfy({ FileSystem.kind(absolute($0)) == .directory }) else { return nil }
        return FileSystem.read(absolute(relative))
    }

    /// The bytes of the file at `relative`, nil when there is none; what stands in the way (a
    /// link, a folder) is an error, for files a command must read if they exist (its manifest).
    public func contents(of relative: FolderPath) throws(FolderError) -> [UInt8]? {
        if let obstacle = obstacle(at: relative) { throw FolderError(obstacle) }
        return read(relative)
    }

    /// What a killed change left: folders beside this one, and temporary files inside it from
    /// an earlier version of the tool. The next ``replace(writing:removing:)`` removes them.
    public func leftovers() -> [String] {
        var found: [String] = []
        for sibling in (try? FileSystem.names(in: parent)) ?? [] where isOwnSibling(sibling) {
            found.append((parent as NSString).appendingPathComponent(sibling))
        }
        func scan(_ folder: String) {
            for name in (try? FileSystem.names(in: folder)) ?? [] {
                let child = folder + "/" + name
                switch FileSystem.kind(child) {
                case .directory: scan(child)
                case .file where Self.isTemporary(name): found.append(child)
                default: break
                }
            }
        }
        if FileSystem.kind(path) == .directory { scan(path) }
        return found
    }

    private func isOwnSibling(_ sibling: String) -> Bool {
        for mark in [Self.swapMark, Self.oldMark] {
            let prefix = "." + name + mark
            if sibling.hasPrefix(prefix), !sibling.dropFirst(prefix.count).isEmpty, sibling.dropFirst(prefix.count).allSatisfy(\.isNumber) {
                return true
            }
        }
        return false
    }

    // MARK: Changing

    /// Makes the folder hold `writes` (these files, with these bytes), no longer hold `removals`
    /// (files and links only: a folder at such a path stays), and keep everything else as it is,
    /// all in one step. Creates the folder when missing. With nothing to change and nothing left
    /// over from a killed run, touches nothing.
    public func replace(writing writes: [FolderPath: [UInt8]], removing removals: Set<FolderPath>) throws(FolderError) {
        try FileSystem.makeDirectoryPath(parent)
        let lock = try FolderSwap.Lock(parent)
        defer { withExtendedLifetime(lock) {} }
        try recoverFromFallback()
        let leftovers = leftovers()
        let removals = removals.filter { [.file, .link].contains(FileSystem.kind(absolute($0))) && exists($0) }
        guard !writes.isEmpty || !removals.isEmpty || !leftovers.isEmpty else { return }
        for leftover in leftovers where leftover.hasPrefix(parent + "/.") { FileSystem.removeTree(leftover) }
        for relative in writes.keys.sorted() {
            if let obstacle = obstacle(at: relative, ignoring: removals) { throw FolderError(obstacle) }
        }

        let staging = (parent as NSString).appendingPathComponent("." + name + Self.swapMark + String(getpid()))
        FileSystem.removeTree(staging)
        do {
            try FileSystem.makeDirectory(staging, mode: FileSystem.mode(path) ?? 0o777)
            var builder = StagingBuilder(source: path, staging: staging)
            if FileSystem.kind(path) == .directory {
                try builder.carry([], except: Set(writes.keys).union(removals))
            }
            for (relative, bytes) in writes.sorted(by: { $0.key < $1.key }) {
                try builder.makeFolders(Array(relative.components.dropLast()))
                try FileSystem.create(staging + "/" + relative.description, bytes)
            }
            builder.finish()
            try swapIn(staging)
        } catch {
            FileSystem.removeTree(staging)
            throw error
        }
        FileSystem.removeTree(staging)  // now the old contents, if there were any
    }

    /// Puts the complete `staging` folder in the folder's place, leaving the old contents at
    /// `staging`.
    private func swapIn(_ staging: String) throws(FolderError) {
        guard FileSystem.kind(path) == .directory else {
            guard rename(staging, path) == 0 else { throw FolderError.system("cannot create \(path)", errno: errno) }
            return
        }
        let failure = FolderSwap.exchange(staging, path)
        guard failure != 0 else { return }
        guard failure == ENOSYS || failure == EINVAL || failure == ENOTSUP else {
            throw FolderError.system("cannot replace \(path) with its new contents", errno: failure)
        }
        // A file system that cannot exchange: two renames, with the old contents kept until the
        // new ones are in place; a run killed between them is undone by the next one.
        let old = (parent as NSString).appendingPathComponent("." + name + Self.oldMark + String(getpid()))
        guard rename(path, old) == 0 else { throw FolderError.system("cannot move \(path) aside", errno: errno) }
        guard rename(staging, path) == 0 else {
            let code = errno
            rename(old, path)
            throw FolderError.system("cannot move the new contents into \(path)", errno: code)
        }
        guard rename(old, staging) == 0 else { FileSystem.removeTree(old); return }
    }

    /// After a run killed between the two renames of the fallback: the folder is missing and
    /// its old contents wait beside it; they go back.
    private func recoverFromFallback() throws(FolderError) {
        guard FileSystem.kind(path) == .missing else { return }
        let prefix = "." + name + Self.oldMark
        for sibling in try FileSystem.names(in: parent) where sibling.hasPrefix(prefix) && isOwnSibling(sibling) {
            let old = (parent as NSString).appendingPathComponent(sibling)
            // Only a real folder is the old contents; a link of that name (a reserved name committed
            // to a repository, pointing anywhere) must never become the folder.
            guard FileSystem.kind(old) == .directory else { continue }
            guard rename(old, path) == 0 else { throw FolderError.system("cannot restore \(path) from \(old)", errno: errno) }
            return
        }
    }
}

/// Builds the new contents of an owned folder beside it: what stays is carried over (hard links,
/// links recreated as links), folders are made only where something lands in them.
private struct StagingBuilder {
    let source: String
    let staging: String
    /// The source's file system: nothing on another is carried.
    private let device: UInt64?
    /// Folders already made in `staging`, by relative path.
    private var made: Set<[String]> = [[]]
    /// Folders whose mode keeps their owner out (0555): made writable while being filled, then
    /// given their mode (``finish()``).
    private var modes: [(path: String, mode: mode_t)] = []

    init(source: String, staging: String) {
        self.source = source
        self.staging = staging
        device = FileSystem.device(source)
    }

    /// Gives every folder made its final mode, deepest first.
    func finish() {
        for (path, mode) in modes.reversed() { chmod(path, mode) }
    }

    /// Makes the folder at `components` in `staging` and those above it, each with the mode of
    /// its counterpart in the source where there is one.
    mutating func makeFolders(_ components: [String]) throws(FolderError) {
        guard !made.contains(components) else { return }
        try makeFolders(Array(components.dropLast()))
        let relative = components.joined(separator: "/")
        let target = staging + "/" + relative
        let mode = FileSystem.mode(source + "/" + relative) ?? 0o777
        try FileSystem.makeDirectory(target, mode: mode | 0o700)
        if mode & 0o700 != 0o700 { modes.append((target, mode)) }
        made.insert(components)
    }

    /// Carries what stands in the source folder at `relative` except `skipped` paths and old
    /// temporary files. A folder left empty only because its files were removed is not carried;
    /// one that was empty already is.
    mutating func carry(_ relative: [String], except skipped: Set<FolderPath>) throws(FolderError) {
        let folder = ([source] + relative).joined(separator: "/")
        let entries = try FileSystem.entries(in: folder)
        if entries.isEmpty { try makeFolders(relative) }
        for entry in entries {
            let child = relative + [entry.name]
            let path = FolderPath(trusted: child)
            let from = folder + "/" + entry.name
            let to = staging + "/" + path.description
            switch entry.kind {
            case .directory:
                // Another file system mounted inside: its files can be neither linked nor swapped,
                // and removing the old contents would empty it.
                guard FileSystem.device(from) == device else {
                    throw FolderError("\(from) is a mount point (another file system); unmount it or choose another --out")
                }
                try carry(child, except: skipped)
            case .file:
                guard !skipped.contains(path), !OwnedFolder.isTemporary(entry.name) else { continue }
                try makeFolders(relative)
                try FileSystem.carry(file: from, to: to)
            case .link:
                guard !skipped.contains(path) else { continue }
                try makeFolders(relative)
                try FileSystem.carry(link: from, to: to)
            case .other:
                throw FolderError("\(from) is neither a file, a folder nor a link; move it out of \(source)")
            case .missing:
                continue
            }
        }
    }
}
