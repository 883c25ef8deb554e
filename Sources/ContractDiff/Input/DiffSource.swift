import ContractModel
import ContractOpenAPI
import Foundation

/// One side of `contract diff`: a contracts tree, loaded and free of errors, from a folder, an
/// OpenAPI document imported in memory, or either of them at a git revision.
public struct DiffTree: Sendable {
    public indirect enum Kind: Sendable, Hashable {
        /// A folder of contracts.
        case folder
        /// An OpenAPI document (Swagger 2.0 or OpenAPI 3.x), imported in memory.
        case openAPI
        /// `REV:PATH`: the revision as written, the commit it names, and what PATH is there
        /// (`.folder` or `.openAPI`).
        case revision(String, commit: String, of: Kind)
    }

    /// The argument as given (`contracts`, `main:contracts`, `openapi.yaml`).
    public var shownAs: String
    /// The tree, loaded with its documents. Each `Contract.file` is shown as the argument names
    /// it: `contracts/products/get.json` for a folder, `main:contracts/products/get.json` at a
    /// revision, and the import's own paths (`products/get.json`) for an OpenAPI document.
    public var set: ContractSet
    public var kind: Kind
    /// For an OpenAPI document, what the import left out or read differently (warnings and
    /// notes, placed in the document); empty for a folder.
    public var importDiagnostics: [Diagnostic]
    /// For an OpenAPI document, where each generated file comes from in it, so changes are
    /// placed in the document a person edits; nil for a folder.
    public var sources: ImportSources?

    public init(shownAs: String, set: ContractSet, kind: Kind, importDiagnostics: [Diagnostic] = []) {
        self.shownAs = shownAs
        self.set = set
        self.kind = kind
        self.importDiagnostics = importDiagnostics
    }
}

/// The input stage of `contract diff OLD NEW`: what an argument names, read and loaded.
///
/// An argument is, in this order: a file or folder that exists as given (so a folder named
/// `a:b` is a folder); else `REV:PATH`, PATH at the git revision REV, from the repository's root
/// as git reads it (`git show main:contracts/x.json`), or from the working directory when it
/// starts with `./` or `../`. A folder is a contracts tree; a `.yaml`, `.yml` or `.json` file
/// is an OpenAPI document, imported in memory (at a revision, its folder at that revision is
/// copied to a temporary folder for the import, for the other files of a split document, and
/// removed after).
public enum DiffSource {
    /// - workingDirectory: where relative paths and git run.
    public static func load(_ argument: String, workingDirectory: String) -> Result<DiffTree, DiagnosticsError> {
        load(argument, workingDirectory: workingDirectory, git: "git", temporaryRoot: TemporaryFolder.systemRoot)
    }

    /// - git: the program run as git, found on PATH (tests name one that is nowhere).
    /// - temporaryRoot: where the copies an import at a revision reads are made (tests give a
    ///   folder of their own, to see nothing is left in it).
    /// - limits: how much a revision may hold (tests lower them).
    static func load(
        _ argument: String, workingDirectory: String, git: String, temporaryRoot: String, limits: RevisionLimits = .standard
    ) -> Result<DiffTree, DiagnosticsError> {
        do throws(DiagnosticsError) {
            let workingDirectory = workingDirectory.isEmpty ? "." : workingDirectory
            return .success(try tree(argument, workingDirectory: workingDirectory, git: git, temporaryRoot: temporaryRoot, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    private static func tree(_ argument: String, workingDirectory: String, git: String, temporaryRoot: String, limits: RevisionLimits) throws(DiagnosticsError) -> DiffTree {
        let onDisk = argument.hasPrefix("/") ? argument : (workingDirectory as NSString).appendingPathComponent(argument)
        var isDirectory: ObjCBool = false
        if !argument.isEmpty, FileManager.default.fileExists(atPath: onDisk, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return try folder(argument, at: onDisk) }
            return try document(at: onDisk, named: argument, shownAs: argument, kind: .openAPI)
        }
        guard let colon = argument.firstIndex(of: ":") else {
            throw failure("no such file or folder: '\(argument)' (a tree at a git revision is written REV:PATH, as in main:contracts)")
        }
        let reference = RevisionReference(argument: argument, revision: String(argument[..<colon]), path: String(argument[argument.index(after: colon)...]))
        return try reference.load(workingDirectory: workingDirectory, git: git, temporaryRoot: temporaryRoot, limits: limits)
    }

    // MARK: Folders and documents on disk

    private static func folder(_ argument: String, at path: String) throws(DiagnosticsError) -> DiffTree {
        let read: [SourceFile]
        do {
            read = try ContractSourceReader.read(directory: path)
        } catch {
            throw failure("cannot read the folder '\(argument)': \(error.message)")
        }
        // Read where it is, shown as given (the reader shows the path it was handed).
        let prefix = displayPrefix(argument)
        let files = read.map { SourceFile(path: prefix + $0.relativePath, relativePath: $0.relativePath, bytes: $0.bytes, readError: $0.readError) }
        return try loaded(files, shownAs: argument, kind: .folder)
    }

    /// The OpenAPI document at `path`, imported, its messages naming `shownAs`; `name` is the
    /// file's name as the argument gives it (its extension tells a document).
    static func document(at path: String, named name: String, shownAs: String, kind: DiffTree.Kind) throws(DiagnosticsError) -> DiffTree {
        guard isDocumentName(name) else { throw notADocument(shownAs) }
        let result: ImportResult
        do {
            result = try OpenAPIImporter.importDocument(path: path, shownAs: shownAs)
        } catch {
            throw DiagnosticsError(error.diagnostics)
        }
        let files = result.tree
        guard !files.isEmpty else {
            throw DiagnosticsError([.error("the OpenAPI document makes no contract to compare", file: shownAs)] + result.diagnostics)
        }
        var tree = try loaded(files, shownAs: shownAs, kind: kind, importDiagnostics: result.diagnostics)
        tree.sources = result.sources
        return tree
    }

    /// An OpenAPI document is a `.yaml`, `.yml` or `.json` file (any case).
    static func isDocumentName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return [".yaml", ".yml", ".json"].contains(where: lowered.hasSuffix)
    }

    static func notADocument(_ shownAs: String) -> DiagnosticsError {
        failure("'\(shownAs)' is a file but not an OpenAPI document (a .yaml, .yml or .json file); give a folder of contracts or an OpenAPI document")
    }

    /// The load stage of ``ContractLoader/loadValid(directory:)`` on files already read: the
    /// tree, when it has no error; else its errors.
    static func loaded(_ files: [SourceFile], shownAs: String, kind: DiffTree.Kind, importDiagnostics: [Diagnostic] = []) throws(DiagnosticsError) -> DiffTree {
        var set = ContractLoader.load(files: files, directory: shownAs)
        set.treeDigest = TreeDigest.of(files)
        guard !set.hasErrors else { throw DiagnosticsError(set.diagnostics.filter { $0.severity == .error }) }
        return DiffTree(shownAs: shownAs, set: set, kind: kind, importDiagnostics: importDiagnostics)
    }

    /// `contracts` and `contracts/` both show as `contracts/…`; `.` (or nothing) shows bare
    /// paths, as ``ContractSourceReader`` shows them.
    static func displayPrefix(_ folder: String) -> String {
        var trimmed = folder
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." || trimmed.isEmpty { return "" }
        return trimmed == "/" ? "/" : trimmed + "/"
    }

    static func failure(_ message: String) -> DiagnosticsError {
        DiagnosticsError([.argumentError(message)])
    }
}
