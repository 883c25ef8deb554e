import ContractModel
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `REV:PATH`: a folder of contracts or an OpenAPI document as it is at a git revision, read with
/// git in the working directory.
struct RevisionReference {
    /// The argument as given (`main:contracts`).
    let argument: String
    /// `main`, `HEAD~1`, `v1.2.0`.
    let revision: String
    /// As written after the colon: from the repository's root, or from the working directory when
    /// it starts with `./` or `../`.
    let path: String

    func load(workingDirectory: String, git: String, temporaryRoot: String) throws(DiffError) -> DiffTree {
        guard !revision.isEmpty else {
            throw DiffSource.failure("'\(argument)' is not a file or folder, and names no git revision before ':' (write REV:PATH, as in main:contracts)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: workingDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DiffSource.failure("cannot read '\(argument)': the working folder '\(workingDirectory)' does not exist")
        }
        do {
            let repository = try GitRepository(directory: workingDirectory, program: git, temporaryRoot: temporaryRoot)
            try repository.checkRepository()
            guard let commit = try repository.commit(revision) else {
                throw DiffSource.failure(
                    "'\(argument)' is not a file or folder, and '\(revision)' is not a revision of the git repository at '\(workingDirectory)'")
            }
            let relative = isRelative
            let fromRoot = try rootRelativePath(prefix: relative ? repository.prefix() : "")
            guard let fromRoot, let object = try repository.object(at: fromRoot, in: commit) else {
                let shown = relative ? "'\(path)' ('\(fromRoot ?? "outside the repository")' from the repository's root)" : "'\(path)'"
                let hint = relative ? "" : "; a path after ':' is from the repository's root (start it with ./ for one from the current folder)"
                throw DiffSource.failure("\(shown) is not in revision '\(revision)' (commit \(commit.prefix(12)))\(hint)")
            }
            switch object.type {
            case "tree":
                return try folder(object.id, in: repository, commit: commit)
            case "blob":
                return try document(at: fromRoot, in: repository, commit: commit)
            default:
                throw DiffSource.failure("'\(path)' is a submodule in revision '\(revision)', not a folder of contracts or an OpenAPI document")
            }
        } catch let failure as GitRepository.Failure {
            throw diffError(failure, workingDirectory: workingDirectory)
        } catch let error as DiffError {
            throw error
        } catch {
            throw DiffSource.failure("cannot read '\(argument)': \(error)")
        }
    }

    private var isRelative: Bool {
        path == "." || path == ".." || path.hasPrefix("./") || path.hasPrefix("../")
    }

    /// The path from the repository's root, `.` and `..` resolved (empty: the root), or nil when
    /// it leads out of the repository.
    private func rootRelativePath(prefix: String) -> String? {
        var components: [Substring] = []
        for component in (prefix + "/" + path).split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard components.popLast() != nil else { return nil }
            default: components.append(component)
            }
        }
        return components.joined(separator: "/")
    }

    private func diffError(_ failure: GitRepository.Failure, workingDirectory: String) -> DiffError {
        switch failure {
        case .gitNotFound:
            return DiffSource.failure(
                "'\(argument)' is not a file or folder, and reading it as the git revision '\(revision)' needs git, which must be on PATH: no 'git' was found there")
        case .notARepository(let message):
            return DiffSource.failure(
                "'\(argument)' is not a file or folder, and '\(workingDirectory)' is not in a git repository to read the revision '\(revision)' from (git: \(message))")
        case .failed(let message):
            return DiffSource.failure("cannot read '\(argument)' with git: \(message)")
        }
    }

    // MARK: A folder of contracts

    /// The contracts tree `tree`: its `.json` files (hidden ones and links left out, as the
    /// loader reads a folder), each shown as `REV:PATH/relative`.
    private func folder(_ tree: String, in repository: GitRepository, commit: String) throws -> DiffTree {
        let entries = try repository.entries(ofTree: tree).filter { entry in
            entry.isFile && entry.path.hasSuffix(".json") && !entry.path.split(separator: "/").contains { $0.hasPrefix(".") }
        }
        var contents = [[UInt8]](repeating: [], count: entries.count)
        var current = 0
        try repository.readBlobs(entries.map(\.id)) { event in
            switch event {
            case .start(let index): current = index
            case .bytes(let bytes): contents[current].append(contentsOf: bytes)
            case .end: break
            }
        }
        let prefix = revision + ":" + DiffSource.displayPrefix(path)
        var files = zip(entries, contents).map { entry, bytes in SourceFile(path: prefix + entry.path, relativePath: entry.path, bytes: bytes) }
        files.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
        return try DiffSource.loaded(files, shownAs: argument, kind: .revision(revision, commit: commit, of: .folder))
    }

    // MARK: An OpenAPI document

    /// The document at `fromRoot`, imported from a copy of its folder at the revision (a split
    /// document refers to files beside it), made in the temporary folder and removed after.
    private func document(at fromRoot: String, in repository: GitRepository, commit: String) throws -> DiffTree {
        var components = fromRoot.split(separator: "/").map(String.init)
        let name = components.removeLast()
        let kind = DiffTree.Kind.revision(revision, commit: commit, of: .openAPI)
        // Told apart before anything is copied.
        guard DiffSource.isDocumentName(name) else { throw DiffSource.notADocument(argument) }
        guard let folder = try repository.object(at: components.joined(separator: "/"), in: commit), folder.type == "tree" else {
            throw GitRepository.Failure.failed("the folder of '\(fromRoot)' is not in commit \(commit)")
        }
        let copy: TemporaryFolder
        do {
            copy = try TemporaryFolder(in: repository.temporaryRoot)
        } catch {
            throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(error.message)")
        }
        defer { copy.remove() }
        // Only what a split document can refer to: a document at the root of a large repository
        // must not copy the whole repository at that revision.
        let removed = try materialise(folder.id, in: repository, into: copy.path) { DiffSource.isDocumentName($0) }
        guard !removed.contains(copy.path + "/" + name) else {
            throw DiffSource.failure("'\(argument)' is a link leading out of its folder at that revision, which is not followed")
        }
        return try DiffSource.document(at: copy.path + "/" + name, named: name, shownAs: argument, kind: kind)
    }

    /// Writes the files of the tree `tree` whose names `keeps` accepts under `target`: links as
    /// links when they lead to a place inside it (one leading out is left out, so a revision
    /// cannot make the import read a file elsewhere on this machine); submodules left out.
    /// Returns the links removed.
    private func materialise(_ tree: String, in repository: GitRepository, into target: String, keeping keeps: (String) -> Bool) throws -> Set<String> {
        let entries = try repository.entries(ofTree: tree).filter { entry in
            // Git refuses such names on checkout; a crafted tree could hold them.
            entry.type == "blob" && keeps(entry.path) && !entry.path.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty || $0 == "." || $0 == ".." }
        }
        var made: Set<String> = [target]
        var links: [String] = []
        var descriptor: Int32 = -1
        var link: [UInt8]?
        var current = 0
        var problem: String?
        defer { if descriptor >= 0 { close(descriptor) } }
        func fail(_ message: String) {
            if problem == nil { problem = message }
        }
        try repository.readBlobs(entries.map(\.id)) { event in
            guard problem == nil else { return }
            switch event {
            case .start(let index):
                current = index
                let entry = entries[index]
                let path = target + "/" + entry.path
                let parent = (path as NSString).deletingLastPathComponent
                if !made.contains(parent) {
                    do {
                        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                        made.insert(parent)
                    } catch {
                        return fail("cannot create \(parent): \(error.localizedDescription)")
                    }
                }
                if entry.isSymbolicLink {
                    link = []
                } else {
                    descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                    if descriptor < 0 { fail("cannot create \(path): \(String(cString: strerror(errno)))") }
                }
            case .bytes(let bytes):
                if link != nil {
                    link?.append(contentsOf: bytes)
                } else {
                    do throws(TemporaryFolder.WriteError) {
                        try TemporaryFolder.write(bytes, to: descriptor)
                    } catch {
                        fail("cannot write \(target)/\(entries[current].path): \(error.message)")
                    }
                }
            case .end:
                let path = target + "/" + entries[current].path
                if let destination = link {
                    link = nil
                    if symlink(String(decoding: destination, as: UTF8.self), path) != 0 {
                        fail("cannot create the link \(path): \(String(cString: strerror(errno)))")
                    }
                    links.append(path)
                } else {
                    close(descriptor)
                    descriptor = -1
                }
            }
        }
        if let problem {
            throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(problem)")
        }
        // Now that every file and link is there, each link is followed to its end (through other
        // links); one that ends outside the copy, or nowhere, is removed.
        guard !links.isEmpty else { return [] }
        let root = Self.realPath(target) ?? target
        var removed: Set<String> = []
        for link in links where !(Self.realPath(link).map { $0.hasPrefix(root + "/") } ?? false) {
            unlink(link)
            removed.insert(link)
        }
        return removed
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
