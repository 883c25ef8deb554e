import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// The input stage of `contract diff`, on real folders and a real git repository made by each
/// test: folders, OpenAPI documents, both at revisions, and every way an argument can fail. A
/// time limit, so a read that hangs (a pipe nobody drains) fails rather than stalls the run: far
/// beyond what the slowest test takes on a busy machine (the 20,000-file tree, 22 s of CPU,
/// took 213 s beside three builds), since it guards against a hang, not a slow machine.
@Suite(.timeLimit(.minutes(20)))
struct DiffSourceTests {
    static let packageRoot = SharedData.packageRoot.path
    static let marketDocument = packageRoot + "/examples/MarketAPI/openapi.yaml"

    // MARK: Folders

    @Test func aFolderIsLoadedWithItsPathsAsGiven() throws {
        let scratch = try Scratch()
        let tree = try scratch.load("contracts", in: scratch.repository).get()
        #expect(tree.kind == .folder)
        #expect(tree.shownAs == "contracts")
        #expect(Set(tree.set.contracts.map(\.id)) == ["health.get", "products.create", "products.delete", "products.get", "products.list", "products.update"])
        #expect(try tree.contract("products.get").file == "contracts/products/get.json")
        #expect(try tree.contract("products.get").summary == "One product, by its id")
        #expect(tree.set.relativePaths["contracts/products/get.json"] == "products/get.json")
        // Documents kept: the diff reads schemas and places values through them.
        #expect(tree.set.documents["products/get.json"] != nil)
        #expect(tree.set.documents["schemas/product.json"] != nil)
        #expect(tree.set.treeDigest != nil)

        // A trailing slash, and an absolute path, as given.
        let slashed = try scratch.load("contracts/", in: scratch.repository).get()
        #expect(try slashed.contract("products.get").file == "contracts/products/get.json")
        let absolute = try scratch.load(scratch.repository + "/contracts", in: "/").get()
        #expect(try absolute.contract("health.get").file == scratch.repository + "/contracts/health.json")
        #expect(absolute.set.treeDigest == tree.set.treeDigest)
        // `.` shows bare paths.
        let here = try scratch.load(".", in: scratch.repository + "/contracts").get()
        #expect(try here.contract("health.get").file == "health.json")
    }

    @Test func aFolderWhoseNameHasAColonIsAFolder() throws {
        let scratch = try Scratch()
        try FileManager.default.copyItem(atPath: Self.packageRoot + "/contracts", toPath: scratch.repository + "/a:b")
        let tree = try scratch.load("a:b", in: scratch.repository).get()
        #expect(tree.kind == .folder)
        #expect(try tree.contract("products.get").file == "a:b/products/get.json")

        // A folder spelt like a revision of the repository wins over the revision.
        try FileManager.default.createDirectory(atPath: scratch.repository + "/HEAD:contracts", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.packageRoot + "/contracts/health.json", toPath: scratch.repository + "/HEAD:contracts/health.json")
        let folder = try scratch.load("HEAD:contracts", in: scratch.repository).get()
        #expect(folder.kind == .folder)
        #expect(folder.set.contracts.map(\.file) == ["HEAD:contracts/health.json"])
    }

    // MARK: Revisions

    @Test func aFolderAtARevisionHasItsContentsThen() throws {
        let scratch = try Scratch()
        let old = try scratch.load("HEAD~1:contracts", in: scratch.repository).get()
        guard case .revision("HEAD~1", let commit, of: .folder) = old.kind else {
            Issue.record("kind \(old.kind)")
            return
        }
        #expect(commit == (try scratch.git("rev-parse", "HEAD~1")))
        #expect(old.shownAs == "HEAD~1:contracts")
        #expect(try old.contract("products.get").summary == "One product by id")
        #expect(try old.contract("products.get").file == "HEAD~1:contracts/products/get.json")
        #expect(Set(old.set.contracts.map(\.file)) == [
            "HEAD~1:contracts/health.json", "HEAD~1:contracts/products/create.json", "HEAD~1:contracts/products/delete.json",
            "HEAD~1:contracts/products/get.json", "HEAD~1:contracts/products/list.json", "HEAD~1:contracts/products/update.json",
        ])
        #expect(old.set.relativePaths["HEAD~1:contracts/schemas/product.json"] == "schemas/product.json")
        #expect(old.set.documents["schemas/product.json"] != nil)
        // The tree as committed is the project's own, byte for byte.
        let original = try scratch.load(Self.packageRoot + "/contracts", in: "/").get()
        #expect(old.set.treeDigest == original.set.treeDigest)

        // HEAD is the folder as it is on disk.
        let head = try scratch.load("HEAD:contracts/", in: scratch.repository).get()
        #expect(try head.contract("products.get").summary == "One product, by its id")
        #expect(try head.contract("products.get").file == "HEAD:contracts/products/get.json")
        let disk = try scratch.load("contracts", in: scratch.repository).get()
        #expect(head.set.treeDigest == disk.set.treeDigest)

        // A branch name, a tag and a commit id name the same.
        try scratch.git("tag", "-a", "v1.0.0", "-m", "first", "HEAD~1")
        for revision in ["v1.0.0", "main~1", String(commit.prefix(10))] {
            let tagged = try scratch.load("\(revision):contracts", in: scratch.repository).get()
            #expect(tagged.set.treeDigest == old.set.treeDigest, "\(revision)")
            #expect(try tagged.contract("health.get").file == "\(revision):contracts/health.json")
        }
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func aPathAtARevisionIsFromTheRootUnlessItStartsWithDot() throws {
        let scratch = try Scratch()
        let old = try scratch.load("HEAD~1:contracts", in: scratch.repository).get()
        let inside = scratch.repository + "/contracts/products"
        // From a subfolder, a path is still from the repository's root…
        let fromRoot = try scratch.load("HEAD~1:contracts", in: inside).get()
        #expect(fromRoot.set.treeDigest == old.set.treeDigest)
        // …and from the current folder with ./ or ../ (git's own rule).
        let relative = try scratch.load("HEAD~1:../", in: inside).get()
        #expect(relative.set.treeDigest == old.set.treeDigest)
        #expect(try relative.contract("products.get").file == "HEAD~1:../products/get.json")
        let dotted = try scratch.load("HEAD~1:./", in: scratch.repository + "/contracts").get()
        #expect(dotted.set.treeDigest == old.set.treeDigest)
        #expect(try dotted.contract("health.get").file == "HEAD~1:health.json")

        let missing = scratch.failure("HEAD~1:./schemas", in: inside)
        #expect(missing == "error: './schemas' ('contracts/products/schemas' from the repository's root) is not in revision 'HEAD~1' (commit \(try scratch.git("rev-parse", "HEAD~1").prefix(12)))")
    }

    @Test func aTreeOfTwentyThousandFilesIsStreamed() throws {
        let scratch = try Scratch()
        let folder = scratch.repository + "/big"
        try FileManager.default.createDirectory(atPath: folder + "/schemas", withIntermediateDirectories: true)
        // One schema file larger than any pipe's buffer, and 20,000 contracts referring to it.
        let names = (0..<2000).map { "\"p\($0)\": {\"type\": \"string\", \"description\": \"\(String(repeating: "x", count: 200))\"}" }
        try Data("{\"type\": \"object\", \"properties\": {\(names.joined(separator: ", "))}}".utf8).write(to: URL(fileURLWithPath: folder + "/schemas/big.json"))
        for index in 0..<20_000 {
            let group = folder + "/g\(index / 1000)"
            if index % 1000 == 0 { try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true) }
            let contract = """
                {"id": "c\(index)", "request": {"method": "GET", "path": "/c/\(index)"}, \
                "cases": [{"name": "ok", "response": {"status": 200, "schema": {"$ref": "../schemas/big.json"}}}]}
                """
            try Data(contract.utf8).write(to: URL(fileURLWithPath: group + "/c\(index).json"))
        }
        try scratch.git("add", "big")
        try scratch.git("commit", "-q", "-m", "big")
        let tree = try scratch.load("HEAD:big", in: scratch.repository).get()
        #expect(tree.set.contracts.count == 20_000)
        #expect(tree.set.relativePaths.count == 20_001)
        #expect(try tree.contract("c19999").file == "HEAD:big/g19/c19999.json")
        let disk = try scratch.load("big", in: scratch.repository).get()
        #expect(tree.set.treeDigest == disk.set.treeDigest)
    }

    // MARK: OpenAPI documents

    @Test func anOpenAPIDocumentIsImportedInMemory() throws {
        let scratch = try Scratch()
        let tree = try scratch.load(Self.marketDocument, in: "/").get()
        #expect(tree.kind == .openAPI)
        #expect(tree.shownAs == Self.marketDocument)
        #expect(Set(tree.set.contracts.map(\.id)).isSuperset(of: ["health.get", "products.get", "products.list"]))
        // The import's own paths, as `contract import openapi` would write them.
        #expect(try tree.contract("products.get").file == tree.set.relativePaths.first { $0.value == (try? tree.contract("products.get").file) }?.key)
        #expect(!(try tree.contract("products.get").file.hasPrefix("/")))
        #expect(try tree.contract("products.get").summary == "One product by id")
        #expect(tree.set.documents.keys.contains { $0.hasPrefix("schemas/") })
        // What the import said is placed in the document as named.
        #expect(tree.importDiagnostics.allSatisfy { $0.file == Self.marketDocument })

        let relative = try scratch.load("openapi.yaml", in: scratch.repository).get()
        #expect(try relative.contract("products.get").summary == "One product, by its id")
        #expect(relative.shownAs == "openapi.yaml")
    }

    @Test func anOpenAPIDocumentAtARevisionIsImportedFromACopyThenRemoved() throws {
        let scratch = try Scratch()
        let old = try scratch.load("HEAD~1:openapi.yaml", in: scratch.repository).get()
        guard case .revision("HEAD~1", _, of: .openAPI) = old.kind else {
            Issue.record("kind \(old.kind)")
            return
        }
        #expect(try old.contract("products.get").summary == "One product by id")
        let original = try scratch.load(Self.marketDocument, in: "/").get()
        #expect(old.set.treeDigest == original.set.treeDigest)
        let head = try scratch.load("HEAD:openapi.yaml", in: scratch.repository).get()
        #expect(try head.contract("products.get").summary == "One product, by its id")
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func aSplitDocumentAtARevisionReadsTheFilesBesideItAndNothingElse() throws {
        let scratch = try Scratch()
        let tree = try scratch.load("HEAD:api/pets.yaml", in: scratch.repository).get()
        let pets = try tree.contract("pets.get")
        #expect(tree.set.documents.keys.contains { $0.hasPrefix("schemas/") && $0.contains("pet") })
        #expect(pets.cases.count >= 1)
        // Warnings name the document as given, never the copy; the link leading out of the
        // document's folder was not copied, so the import finds no file there.
        for diagnostic in tree.importDiagnostics {
            #expect(!diagnostic.rendered.contains(scratch.temporary), "\(diagnostic.rendered)")
            #expect(!diagnostic.rendered.contains("contract-diff-"), "\(diagnostic.rendered)")
        }
        let shown = tree.importDiagnostics.map(\.rendered)
        #expect(shown.contains { $0.hasPrefix("HEAD:api/pets.yaml:") && $0.contains("'./outside.yaml' refers to a file that does not exist") }, "\(shown)")
        #expect(scratch.leftovers.isEmpty)

        // On disk the same link is followed and refused by the import itself.
        let disk = try scratch.load("api/pets.yaml", in: scratch.repository).get()
        #expect(disk.importDiagnostics.map(\.rendered).contains { $0.contains("'./outside.yaml' is outside the folder of the document") })
        #expect(disk.set.treeDigest == tree.set.treeDigest)

        // A link inside the folder is one at the revision too; one leading out is not followed.
        #expect(try scratch.load("HEAD:api/alias.yaml", in: scratch.repository).get().set.treeDigest == tree.set.treeDigest)
        #expect(scratch.failure("HEAD:api/linked.yaml", in: scratch.repository) 
            == "error: 'HEAD:api/linked.yaml' is a link leading out of its folder at that revision, which is not followed")
        #expect(scratch.leftovers.isEmpty)
    }

    // MARK: Errors

    @Test func nothingThereIsAnError() throws {
        let scratch = try Scratch()
        #expect(scratch.failure("contractz", in: scratch.repository)
            == "error: no such file or folder: 'contractz' (a tree at a git revision is written REV:PATH, as in main:contracts)")
        #expect(scratch.failure(":contracts", in: scratch.repository)
            == "error: ':contracts' is not a file or folder, and names no git revision before ':' (write REV:PATH, as in main:contracts)")
        #expect(scratch.failure("HEAD:contracts", in: scratch.repository + "/nowhere")
            == "error: cannot read 'HEAD:contracts': the working folder '\(scratch.repository)/nowhere' does not exist")
    }

    @Test func aRevisionOutsideARepositoryIsAnError() throws {
        let scratch = try Scratch()
        let message = scratch.failure("main:contracts", in: scratch.outside)
        #expect(message.hasPrefix(
            "error: 'main:contracts' is not a file or folder, and '\(scratch.outside)' is not in a git repository to read the revision 'main' from (git: fatal: not a git repository"),
            "\(message)")
    }

    @Test func anUnknownRevisionIsAnError() throws {
        let scratch = try Scratch()
        #expect(scratch.failure("nosuch:contracts", in: scratch.repository)
            == "error: 'nosuch:contracts' is not a file or folder, and 'nosuch' is not a revision of the git repository at '\(scratch.repository)'")
        #expect(scratch.failure("HEAD~5:contracts", in: scratch.repository)
            == "error: 'HEAD~5:contracts' is not a file or folder, and 'HEAD~5' is not a revision of the git repository at '\(scratch.repository)'")
        // Never read as an option of git.
        #expect(scratch.failure("--all:contracts", in: scratch.repository)
            == "error: '--all:contracts' is not a file or folder, and '--all' is not a revision of the git repository at '\(scratch.repository)'")
    }

    @Test func aPathNotInTheRevisionIsAnError() throws {
        let scratch = try Scratch()
        let commit = try scratch.git("rev-parse", "HEAD~1").prefix(12)
        #expect(scratch.failure("HEAD~1:contract", in: scratch.repository)
            == "error: 'contract' is not in revision 'HEAD~1' (commit \(commit)); a path after ':' is from the repository's root (start it with ./ for one from the current folder)")
        #expect(scratch.failure("HEAD~1:../x", in: scratch.repository)
            == "error: '../x' ('outside the repository' from the repository's root) is not in revision 'HEAD~1' (commit \(commit))")
    }

    @Test func gitMustBeOnPath() throws {
        let scratch = try Scratch()
        let result = DiffSource.load("HEAD:contracts", workingDirectory: scratch.repository, git: "no-such-git-program", temporaryRoot: scratch.temporary)
        #expect(result.failureText
            == "error: 'HEAD:contracts' is not a file or folder, and reading it as the git revision 'HEAD' needs git, which must be on PATH: no 'git' was found there")
        // A folder needs no git.
        #expect(throws: Never.self) {
            try DiffSource.load("contracts", workingDirectory: scratch.repository, git: "no-such-git-program", temporaryRoot: scratch.temporary).get()
        }
    }

    @Test func aFileThatIsNoOpenAPIDocumentIsAnError() throws {
        let scratch = try Scratch()
        let expected = "is a file but not an OpenAPI document (a .yaml, .yml or .json file); give a folder of contracts or an OpenAPI document"
        #expect(scratch.failure("README.md", in: scratch.repository) == "error: 'README.md' \(expected)")
        #expect(scratch.failure("HEAD:README.md", in: scratch.repository) == "error: 'HEAD:README.md' \(expected)")
        // A contract is JSON, but no OpenAPI document: the import says so, in the file.
        #expect(scratch.failure("contracts/health.json", in: scratch.repository)
            == "contracts/health.json:1:1: error: not an OpenAPI document: the 'openapi' version string is missing")
        #expect(scratch.failure("HEAD~1:contracts/health.json", in: scratch.repository)
            == "HEAD~1:contracts/health.json:1:1: error: not an OpenAPI document: the 'openapi' version string is missing")
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func anImportThatFailsGivesItsDiagnostics() throws {
        let scratch = try Scratch()
        try scratch.write("future.yaml", "openapi: 4.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n")
        try scratch.write("broken.yaml", "openapi: 3.0.3\ninfo: [\n")
        try scratch.write("empty.yaml", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n")
        #expect(scratch.failure("future.yaml", in: scratch.repository)
            == "future.yaml:1:10: error: OpenAPI 4.0.0 is not supported: 3.0.x, 3.1.x and 3.2.x are [/openapi]")
        #expect(scratch.failure("broken.yaml", in: scratch.repository).hasPrefix("broken.yaml:"))
        #expect(scratch.failure("empty.yaml", in: scratch.repository) == """
            empty.yaml: error: the OpenAPI document makes no contract to compare
            empty.yaml: warning: the document has no operations a contract can describe; nothing to write
            """)
        try scratch.git("add", "future.yaml")
        try scratch.git("commit", "-q", "-m", "future")
        #expect(scratch.failure("HEAD:future.yaml", in: scratch.repository)
            == "HEAD:future.yaml:1:10: error: OpenAPI 4.0.0 is not supported: 3.0.x, 3.1.x and 3.2.x are [/openapi]")
        #expect(scratch.leftovers.isEmpty)
    }

    @Test func aTreeWithErrorsGivesItsErrors() throws {
        let scratch = try Scratch()
        let broken = scratch.repository + "/broken"
        try FileManager.default.copyItem(atPath: Self.packageRoot + "/contracts", toPath: broken)
        try scratch.write("broken/products/get.json", "{\"id\": \"products.get\", \"request\": ")
        try scratch.write("broken/health.json", "{\"id\": \"health.get\", \"request\": {\"method\": \"GET\", \"path\": \"/health\"}, \"cases\": [], \"colour\": 1}")
        let errors = scratch.failure("broken", in: scratch.repository).split(separator: "\n")
        #expect(errors.count >= 2)
        #expect(errors.allSatisfy { $0.contains(": error: ") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("broken/products/get.json:1:") })
        #expect(errors.contains { $0.hasPrefix("broken/health.json:") })
        try scratch.git("add", "broken")
        try scratch.git("commit", "-q", "-m", "broken")
        let atRevision = scratch.failure("HEAD:broken", in: scratch.repository).split(separator: "\n")
        #expect(atRevision == errors.map { "HEAD:" + $0 })

        // Warnings alone do not stop a tree; an empty folder is an error, as for every command.
        try FileManager.default.createDirectory(atPath: scratch.repository + "/empty", withIntermediateDirectories: true)
        #expect(scratch.failure("empty", in: scratch.repository) == "empty: error: no contract files (*.json outside 'schemas' folders) found")
    }

    @Test func aSubmoduleIsNoTree() throws {
        let scratch = try Scratch()
        // A gitlink entry, as a submodule leaves in the tree, without cloning anything.
        let commit = try scratch.git("rev-parse", "HEAD")
        try scratch.git("update-index", "--add", "--cacheinfo", "160000,\(commit),vendor")
        try scratch.git("commit", "-q", "-m", "submodule")
        #expect(scratch.failure("HEAD:vendor", in: scratch.repository)
            == "error: 'vendor' is a submodule in revision 'HEAD', not a folder of contracts or an OpenAPI document")
    }

    // MARK: Running programs

    @Test func bothOutputsAreReadAsTheyComeSoNeitherBlocks() throws {
        // Four megabytes on each, interleaved: reading one to its end first would deadlock.
        let script = "i=0; while [ $i -lt 64 ]; do head -c 65536 /dev/zero; head -c 65536 /dev/zero >&2; i=$((i+1)); done; exit 3"
        var output = 0
        let outcome = try Subprocess.run("/bin/sh", ["-c", script], in: "/", environment: ProcessInfo.processInfo.environment) { output += $0.count }
        #expect(output == 64 * 65536)
        #expect(outcome.status == 3)
        // Standard error is kept up to its first 64 KiB.
        #expect(outcome.standardError.count == 65536)
    }

    /// A descriptor this process holds without close-on-exec (as Foundation's file writes open
    /// theirs) does not reach git: a child that kept a file open for writing would make running
    /// that file fail with "Text file busy" for as long as the child lives.
    @Test func onlyTheStandardDescriptorsReachTheChild() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inherited-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(descriptor > 2)
        defer { close(descriptor); unlink(path) }
        let (outcome, output) = try Subprocess.capture("/bin/sh", ["-c", "ls /proc/$$/fd"], in: nil, environment: [:])
        #expect(outcome.status == 0)
        let open = String(decoding: output, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        #expect(!open.isEmpty)
        #expect(!open.contains(Int(descriptor)), "the child holds \(open)")
        #expect(open.allSatisfy { $0 <= 2 || $0 == 255 }, "the child holds \(open)")
    }

    @Test func aChildRunsInItsOwnFolderAndThisProcessStaysInItsOwn() throws {
        let before = FileManager.default.currentDirectoryPath
        let (outcome, output) = try Subprocess.capture("/bin/sh", ["-c", "pwd"], in: "/usr", environment: [:])
        #expect(outcome.status == 0)
        #expect(String(decoding: output, as: UTF8.self) == "/usr\n")
        #expect(FileManager.default.currentDirectoryPath == before)
    }
}

// MARK: - Helpers

extension DiffTree {
    fileprivate func contract(_ id: String) throws -> Contract {
        try #require(set.contracts.first { $0.id == id }, "no contract '\(id)' in \(set.contracts.map(\.id))")
    }
}

extension Result where Success == DiffTree, Failure == DiagnosticsError {
    /// The error as the command prints it, or a note that there was none.
    fileprivate var failureText: String {
        switch self {
        case .success(let tree): "loaded \(tree.shownAs), no error"
        case .failure(let error): error.description
        }
    }
}

/// A folder for one test, removed with it: `repository`, a git repository of two commits
/// (`HEAD~1`: the project's contracts and the example API's document as they are; `HEAD`: one
/// summary changed in each), `outside`, a folder in no repository, and `temporary`, where the
/// diff makes its copies (empty after every load).
private final class Scratch {
    let root: String
    var repository: String { root + "/repo" }
    var outside: String { root + "/outside" }
    var temporary: String { root + "/tmp" }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("DiffSourceTests-\(UUID().uuidString)").path
        for folder in [root, repository, outside, temporary] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Contract Tests")
        try git("config", "user.email", "tests@example.com")
        try git("config", "commit.gpgsign", "false")
        try FileManager.default.copyItem(atPath: DiffSourceTests.packageRoot + "/contracts", toPath: repository + "/contracts")
        try FileManager.default.copyItem(atPath: DiffSourceTests.marketDocument, toPath: repository + "/openapi.yaml")
        try write("README.md", "# A repository of contracts\n")
        // A split document: a schema in a file beside it, and a link out of its folder.
        try write("api/pets.yaml", """
            openapi: 3.0.3
            info: {title: Pets, version: '1'}
            paths:
              /pets/{id}:
                get:
                  operationId: pets.get
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: integer}, example: 1}
                  responses:
                    '200':
                      description: A pet
                      content:
                        application/json:
                          schema: {$ref: './schemas/pet.yaml'}
                    '404':
                      description: No such pet
                      content:
                        application/json:
                          schema: {$ref: './outside.yaml'}

            """)
        try write("api/schemas/pet.yaml", "type: object\nrequired: [id]\nproperties:\n  id: {type: integer}\n  name: {type: string}\n")
        // Links leading out of the repository, to files that exist on this machine: a schema, and
        // a whole document.
        try Data("type: object\n".utf8).write(to: URL(fileURLWithPath: outside + "/elsewhere.yaml"))
        try FileManager.default.copyItem(atPath: DiffSourceTests.marketDocument, toPath: outside + "/market.yaml")
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/outside.yaml", withDestinationPath: outside + "/elsewhere.yaml")
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/linked.yaml", withDestinationPath: outside + "/market.yaml")
        // And one that stays inside the document's folder.
        try FileManager.default.createSymbolicLink(atPath: repository + "/api/alias.yaml", withDestinationPath: "pets.yaml")
        try git("add", ".")
        try git("commit", "-q", "-m", "first")
        try replace("contracts/products/get.json", "\"summary\": \"One product by id\"", with: "\"summary\": \"One product, by its id\"")
        try replace("openapi.yaml", "summary: One product by id", with: "summary: One product, by its id")
        try git("commit", "-q", "-am", "second")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    func load(_ argument: String, in directory: String) -> Result<DiffTree, DiagnosticsError> {
        DiffSource.load(argument, workingDirectory: directory, git: "git", temporaryRoot: temporary)
    }

    /// The error as printed; records an issue when the argument loads.
    func failure(_ argument: String, in directory: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        let result = load(argument, in: directory)
        if case .success = result { Issue.record("'\(argument)' loaded", sourceLocation: sourceLocation) }
        return result.failureText
    }

    /// What is left in `temporary`.
    var leftovers: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? ["(unreadable)"]
    }

    func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: repository + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func replace(_ path: String, _ old: String, with new: String) throws {
        let text = try String(contentsOfFile: repository + "/" + path, encoding: .utf8)
        #expect(text.contains(old), "\(path) has no '\(old)'")
        try write(path, text.replacingOccurrences(of: old, with: new))
    }

    /// Runs git in the repository, with no configuration but the repository's; its output, trimmed.
    @discardableResult
    func git(_ arguments: String...) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        let (status, output, error) = try ChildProcess.run("/usr/bin/env", ["git"] + arguments, in: repository, environment: environment)
        guard status == 0 else {
            throw ChildProcess.SpawnError(description: "git \(arguments.joined(separator: " ")): \(String(decoding: error, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
