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

    /// - limits: how much the revision may hold (tests lower them).
    func load(workingDirectory: String, git: String, temporaryRoot: String, limits: RevisionLimits = .standard) throws(DiagnosticsError) -> DiffTree {
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
            guard let fromRoot, let object = try objectAt(fromRoot, in: repository, commit: commit) else {
                let shown = relative ? "'\(path)' ('\(fromRoot ?? "outside the repository")' from the repository's root)" : "'\(path)'"
                let hint = relative ? "" : "; a path after ':' is from the repository's root (start it with ./ for one from the current folder)"
                throw DiffSource.failure("\(shown) is not in revision '\(revision)' (commit \(commit.prefix(12)))\(hint)")
            }
            switch object.type {
            case "tree":
                return try folder(object.id, in: repository, commit: commit, limits: limits)
            case "blob":
                return try document(at: fromRoot, in: repository, commit: commit, limits: limits)
            default:
                throw DiffSource.failure("'\(path)' is a submodule in revision '\(revision)', not a folder of contracts or an OpenAPI document")
            }
        } catch let failure as GitRepository.Failure {
            throw diffError(failure, workingDirectory: workingDirectory)
        } catch let error as DiagnosticsError {
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

    private func diffError(_ failure: GitRepository.Failure, workingDirectory: String) -> DiagnosticsError {
        switch failure {
        case .gitNotFound:
            return DiffSource.failure(
                "'\(argument)' is not a file or folder, and reading it as the git revision '\(revision)' needs git, which must be on PATH: no 'git' was found there")
        case .notARepository(let message):
            return DiffSource.failure(
                "'\(argument)' is not a file or folder, and '\(workingDirectory)' is not in a git repository to read the revision '\(revision)' from (git: \(message))")
        case .failed(let message):
            return DiffSource.failure("cannot read '\(argument)' with git: \(message)")
        case .missing(let id, let partialClone):
            return missing(id, at: nil, partialClone: partialClone)
        case .tooManyEntries(let limit):
            return tooManyEntries(limit)
        }
    }

    private func tooManyEntries(_ limit: Int) -> DiagnosticsError {
        DiffSource.failure(
            "cannot read '\(argument)': the tree at that revision lists more than \(limit) entries (folders and files, read or not) "
                + "or \((limit * GitRepository.listedBytesPerEntry) >> 20) MiB of names, the most contract diff lists; nothing was read from it")
    }

    /// A git object the repository lacks, with the path it has at the revision when known.
    private func missing(_ id: String, at path: String?, partialClone: Bool) -> DiagnosticsError {
        let object = "the object \(id)\(path.map { " (\($0) at that revision)" } ?? "")"
        if partialClone {
            return DiffSource.failure(
                "cannot read '\(argument)': \(object) is not in this repository, which is a partial clone that left it on its remote; "
                    + "contract diff never fetches anything (a fetch runs what the repository's configuration names: fetch with git yourself if you trust it)")
        }
        return DiffSource.failure("cannot read '\(argument)': \(object) is not in this repository (git says it is missing)")
    }

    /// ``GitRepository/object(at:in:)``, with a missing object named by its path.
    private func objectAt(_ path: String, in repository: GitRepository, commit: String) throws -> (id: String, type: String)? {
        do throws(GitRepository.Failure) {
            return try repository.object(at: path, in: commit)
        } catch {
            guard case .missing(let id, let partialClone) = error else { throw error }
            throw missing(id, at: path.isEmpty ? nil : path, partialClone: partialClone)
        }
    }

    /// The entries of the tree `tree`, refused when git would never check it out.
    private func checkedEntries(ofTree tree: String, in repository: GitRepository, limits: RevisionLimits) throws -> [GitRepository.Entry] {
        let entries: [GitRepository.Entry]
        do throws(GitRepository.Failure) {
            entries = try repository.entries(ofTree: tree, atMost: limits.entryCount)
        } catch {
            guard case .tooManyEntries(let limit) = error else { throw error }
            throw tooManyEntries(limit)
        }
        if let problem = RevisionTree.problem(in: entries) {
            throw DiffSource.failure("cannot read '\(argument)': the tree at that revision \(problem); nothing was read from it")
        }
        return entries
    }

    /// The size of each of `entries`, checked against `limits`; a missing one named by its path.
    private func checkedSizes(of entries: [GitRepository.Entry], shownAs shown: (String) -> String, in repository: GitRepository, limits: RevisionLimits) throws -> [Int] {
        let sizes: [Int]
        do throws(GitRepository.Failure) {
            sizes = try repository.sizes(of: entries.map(\.id))
        } catch {
            guard case .missing(let id, let partialClone) = error else { throw error }
            let path = entries.first { $0.id == id }?.path
            throw missing(id, at: path.map(shown), partialClone: partialClone)
        }
        if let problem = limits.problem(with: zip(entries, sizes).map { (shown($0.path), $1) }) {
            throw DiffSource.failure("cannot read '\(argument)': \(problem); nothing was read from it")
        }
        return sizes
    }

    // MARK: A folder of contracts

    /// The contracts tree `tree`: its `.json` files (hidden ones and links left out, as the
    /// loader reads a folder), each shown as `REV:PATH/relative`.
    private func folder(_ tree: String, in repository: GitRepository, commit: String, limits: RevisionLimits) throws -> DiffTree {
        let entries = try checkedEntries(ofTree: tree, in: repository, limits: limits).filter { entry in
            entry.isFile && entry.path.hasSuffix(".json") && !entry.path.split(separator: "/").contains { $0.hasPrefix(".") }
        }
        let prefix = revision + ":" + DiffSource.displayPrefix(path)
        let sizes = try checkedSizes(of: entries, shownAs: { DiffSource.displayPrefix(path) + $0 }, in: repository, limits: limits)
        let contents = try RevisionFiles.read(entries.map(\.id), sizes: sizes, from: repository).contents
        var files = zip(entries, contents).map { entry, bytes in SourceFile(path: prefix + entry.path, relativePath: entry.path, bytes: bytes) }
        files.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
        return try DiffSource.loaded(files, shownAs: argument, kind: .revision(revision, commit: commit, of: .folder))
    }

    // MARK: An OpenAPI document

    /// The document at `fromRoot`, imported from a copy of its folder at the revision (a split
    /// document refers to files beside it), made in the temporary folder and removed after.
    private func document(at fromRoot: String, in repository: GitRepository, commit: String, limits: RevisionLimits) throws -> DiffTree {
        var components = fromRoot.split(separator: "/").map(String.init)
        let name = components.removeLast()
        let kind = DiffTree.Kind.revision(revision, commit: commit, of: .openAPI)
        // Told apart before anything is copied.
        guard DiffSource.isDocumentName(name) else { throw DiffSource.notADocument(argument) }
        guard let folder = try objectAt(components.joined(separator: "/"), in: repository, commit: commit), folder.type == "tree" else {
            throw GitRepository.Failure.failed("the folder of '\(fromRoot)' is not in commit \(commit)")
        }
        let copy: TemporaryFolder
        do {
            copy = try TemporaryFolder(in: repository.temporaryRoot)
        } catch {
            throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(error.message)")
        }
        defer { copy.remove() }
        // The folder as the argument names it: `api/` for `HEAD:api/pets.yaml`.
        let shownFolder = DiffSource.displayPrefix((path as NSString).deletingLastPathComponent)
        // Only what a split document can refer to: a document at the root of a large repository
        // must not copy the whole repository at that revision.
        let left = try materialise(folder.id, in: repository, into: copy.path, shownFolder: shownFolder, limits: limits) { DiffSource.isDocumentName($0) }
        if let link = left.first(where: { $0.path == name }) {
            throw DiffSource.failure("'\(argument)' is a link \(link.reason) at that revision, which is not followed")
        }
        var tree = try DiffSource.document(at: copy.path + "/" + name, named: name, shownAs: argument, kind: kind)
        // Said where the import would otherwise only find no file.
        tree.importDiagnostics += left.map { link in
            .warning("a link \(link.reason) at that revision: not copied, so the import reads nothing through it", file: revision + ":" + shownFolder + link.path)
        }
        return tree
    }

    /// A link `materialise` did not copy, relative to the copied folder, and why (`leading out of its folder`).
    struct LeftOutLink {
        var path: String
        var reason: String
    }

    /// Writes the files of the tree `tree` whose names `keeps` accepts under `target` (a folder
    /// this process made), through a ``RevisionCopy``: never a write through a link, whatever the
    /// tree holds; a tree git would never check out (a name twice in a folder, `..`) is refused
    /// before anything is written, and git itself never writes here (only `cat-file` runs, whose
    /// output this process writes). Links are made as links, after every file, when they lead to
    /// a place inside the copy; one leading out, or nowhere, is removed again (so a revision cannot
    /// make the import read a file elsewhere on this machine) and returned; submodules are left
    /// out.
    private func materialise(
        _ tree: String, in repository: GitRepository, into target: String, shownFolder: String, limits: RevisionLimits, keeping keeps: (String) -> Bool
    ) throws -> [LeftOutLink] {
        let kept = try checkedEntries(ofTree: tree, in: repository, limits: limits).filter { entry in entry.type == "blob" && keeps(entry.path) }
        let sizes = try checkedSizes(of: kept, shownAs: { shownFolder + $0 }, in: repository, limits: limits)
        var left: [LeftOutLink] = []
        // Files first, then links, each in path order, so the folders of one path are opened once.
        var files: [(entry: GitRepository.Entry, size: Int)] = []
        var links: [(entry: GitRepository.Entry, size: Int)] = []
        for (entry, size) in zip(kept, sizes) {
            if !entry.isSymbolicLink {
                files.append((entry, size))
            } else if size == 0 || size >= Int(PATH_MAX) {
                left.append(LeftOutLink(path: entry.path, reason: "to no usable path (\(size) bytes)"))
            } else {
                links.append((entry, size))
            }
        }
        func inPathOrder(_ a: (entry: GitRepository.Entry, size: Int), _ b: (entry: GitRepository.Entry, size: Int)) -> Bool {
            a.entry.path.split(separator: "/").lexicographicallyPrecedes(b.entry.path.split(separator: "/")) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        files.sort(by: inPathOrder)
        links.sort(by: inPathOrder)
        let ordered = files + links
        let copy: RevisionCopy
        do {
            copy = try RevisionCopy(target)
        } catch {
            throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(error.message)")
        }
        var descriptor: Int32 = -1
        var destinations = [[UInt8]](repeating: [], count: links.count)
        var current = 0
        var problem: String?
        defer { if descriptor >= 0 { close(descriptor) } }
        func fail(_ message: String) {
            if problem == nil { problem = message }
        }
        try repository.readBlobs(ordered.map(\.entry.id), sizes: ordered.map(\.size)) { event in
            guard problem == nil else { return }
            switch event {
            case .start(let index):
                current = index
                guard index < files.count else { return }
                do throws(RevisionCopy.Failure) {
                    descriptor = try copy.createFile(files[index].entry.path)
                } catch {
                    fail(error.message)
                }
            case .bytes(let bytes):
                if current >= files.count {
                    destinations[current - files.count].append(contentsOf: bytes)
                } else {
                    do throws(TemporaryFolder.WriteError) {
                        try TemporaryFolder.write(bytes, to: descriptor)
                    } catch {
                        fail("cannot write \(files[current].entry.path): \(error.message)")
                    }
                }
            case .end:
                if current < files.count {
                    close(descriptor)
                    descriptor = -1
                }
            }
        }
        if let problem {
            throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(problem)")
        }
        // Every file is written: only now are links made.
        var made: [String] = []
        for (link, destination) in zip(links, destinations) {
            guard !destination.contains(0) else {
                left.append(LeftOutLink(path: link.entry.path, reason: "to a path holding a NUL byte"))
                continue
            }
            do {
                try copy.createLink(link.entry.path, to: String(decoding: destination, as: UTF8.self))
                made.append(link.entry.path)
            } catch {
                throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(error.message)")
            }
        }
        // Each link is followed to its end (through other links; reading, never writing); one
        // that ends outside the copy, or nowhere, is removed, as a link.
        let root = Self.realPath(target) ?? target
        for link in made {
            let end = Self.realPath(target + "/" + link)
            if let end, end.hasPrefix(root + "/") { continue }
            do {
                try copy.removeLink(link)
            } catch {
                throw DiffSource.failure("cannot copy the folder of '\(argument)' to a temporary folder: \(error.message)")
            }
            left.append(LeftOutLink(path: link, reason: end == nil ? "leading to nothing in its folder" : "leading out of its folder"))
        }
        return left.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
