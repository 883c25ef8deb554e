import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractDiff

/// How much `contract diff` reads from a git revision: each blob's size is asked of git before
/// any of it is read, a revision over a limit is refused whole with the path and the limit, and
/// reading costs work in proportion to the bytes read. The limits are lowered here so that no
/// test writes hundreds of megabytes; git runs through a wrapper that logs what it is asked,
/// so a test sees that a refused revision's blobs were never read. The time limit guards against a
/// hang (git waiting on a pipe nobody drains), not a slow machine: as DiffSourceTests', far beyond
/// what these take beside builds.
@Suite(.timeLimit(.minutes(20)))
struct RevisionLimitTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("RevisionLimitTests-\(UUID().uuidString)").path
    var repository: String { root + "/repo" }
    var temporary: String { root + "/tmp" }
    /// A script that logs each run's arguments to `gitLog`, then runs git.
    var git: String { root + "/git" }
    var gitLog: String { root + "/git.log" }

    init() throws {
        for folder in [root, repository, temporary] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try Data("#!/bin/sh\necho \"$*\" >> '\(gitLog)'\nexec git \"$@\"\n".utf8).write(to: URL(fileURLWithPath: git))
        chmod(git, 0o755)
        try run("git init -q -b main")
        try FileManager.default.copyItem(atPath: SharedData.packageRoot.path + "/contracts", toPath: repository + "/contracts")
        try FileManager.default.createDirectory(atPath: repository + "/api", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SharedData.packageRoot.path + "/examples/MarketAPI/openapi.yaml", toPath: repository + "/api/openapi.yaml")
    }

    /// Runs a shell script in the repository, git with no configuration but the repository's.
    @discardableResult
    func run(_ script: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["GIT_AUTHOR_NAME"] = "t"
        environment["GIT_AUTHOR_EMAIL"] = "t@example.com"
        environment["GIT_COMMITTER_NAME"] = "t"
        environment["GIT_COMMITTER_EMAIL"] = "t@example.com"
        let (status, output, error) = try ChildProcess.run("/bin/sh", ["-c", "set -e; " + script], in: repository, environment: environment)
        guard status == 0 else { throw ChildProcess.SpawnError(description: "\(script): \(String(decoding: error, as: UTF8.self))") }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `count` bytes: a JSON string of `x`s, quoted.
    func write(_ path: String, bytes count: Int) throws {
        try Data(("\"" + String(repeating: "x", count: count - 2) + "\"").utf8).write(to: URL(fileURLWithPath: repository + "/" + path))
    }

    func load(_ argument: String, _ limits: RevisionLimits) -> Result<DiffTree, DiagnosticsError> {
        DiffSource.load(argument, workingDirectory: repository, git: git, temporaryRoot: temporary, limits: limits)
    }

    func failure(_ argument: String, _ limits: RevisionLimits, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        switch load(argument, limits) {
        case .success:
            Issue.record("'\(argument)' loaded", sourceLocation: sourceLocation)
            return ""
        case .failure(let error):
            return error.description
        }
    }

    /// The git commands run since the last call.
    func gitRuns() throws -> [String] {
        defer { try? FileManager.default.removeItem(atPath: gitLog) }
        return (try? String(contentsOfFile: gitLog, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    // MARK: Limits

    /// A file one byte over the limit is refused, named with the revision, its path and the
    /// limit, and git was never asked for its bytes; one at the limit is read.
    @Test func aFileOverTheLimitIsRefusedBeforeAnyOfItIsRead() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("contracts/schemas/large.json", bytes: 1_048_577)
        try write("api/large.json", bytes: 1_048_577)
        try run("git add . && git commit -q -m large")
        let limits = RevisionLimits(fileSize: 1 << 20, totalSize: 1 << 30, fileCount: 1000)
        _ = try gitRuns()

        #expect(failure("HEAD:contracts", limits) == """
            error: cannot read 'HEAD:contracts': 'contracts/schemas/large.json' is 1048577 bytes at that revision, \
            more than the 1 MiB (1048576 bytes) contract diff reads from a revision in one file; nothing was read from it
            """)
        var runs = try gitRuns()
        #expect(runs.contains { $0.hasSuffix("cat-file --batch-check") }, "\(runs)")
        #expect(!runs.contains { $0.hasSuffix("cat-file --batch") }, "its bytes were read: \(runs)")

        // A document's folder at a revision: the file beside it counts, named as the argument names it.
        #expect(failure("HEAD:api/openapi.yaml", limits) == """
            error: cannot read 'HEAD:api/openapi.yaml': 'api/large.json' is 1048577 bytes at that revision, \
            more than the 1 MiB (1048576 bytes) contract diff reads from a revision in one file; nothing was read from it
            """)
        runs = try gitRuns()
        #expect(!runs.contains { $0.hasSuffix("cat-file --batch") }, "its bytes were read: \(runs)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary)) == [])

        // At the limit, both are read.
        let at = RevisionLimits(fileSize: 1_048_577, totalSize: 1 << 30, fileCount: 1000)
        let tree = try load("HEAD:contracts", at).get()
        #expect(tree.set.relativePaths["HEAD:contracts/schemas/large.json"] == "schemas/large.json")
        #expect(throws: Never.self) { try load("HEAD:api/openapi.yaml", at).get() }
    }

    /// The files of a revision together, and how many there are, are bounded the same way.
    @Test func theTotalSizeAndTheNumberOfFilesAreBounded() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try run("git add . && git commit -q -m contracts")
        let files = try run("git ls-tree -r --name-only HEAD:contracts | grep -c '\\.json$'")
        let total = try Int(run("git ls-tree -r -l HEAD:contracts | awk '$5 ~ /\\.json$/ { s += $4 } END { print s }'")) ?? -1
        let count = try #require(Int(files))

        #expect(failure("HEAD:contracts", RevisionLimits(fileSize: 1 << 20, totalSize: total - 1, fileCount: 1000)) == """
            error: cannot read 'HEAD:contracts': its \(count) files come to \(total) bytes at that revision, \
            more than the \(total - 1) bytes contract diff reads from a revision; nothing was read from it
            """)
        #expect(failure("HEAD:contracts", RevisionLimits(fileSize: 1 << 20, totalSize: 1 << 30, fileCount: count - 1)) == """
            error: cannot read 'HEAD:contracts': it has \(count) files to read, \
            more than the \(count - 1) contract diff reads from a revision; nothing was read from it
            """)
        #expect(!(try gitRuns()).contains { $0.hasSuffix("cat-file --batch") })
        #expect(throws: Never.self) { try load("HEAD:contracts", RevisionLimits(fileSize: 1 << 20, totalSize: total, fileCount: count)).get() }

        // A document's folder: only the files copied count (.yaml, .yml and .json).
        #expect(failure("HEAD:api/openapi.yaml", RevisionLimits(fileSize: 1 << 20, totalSize: 1 << 30, fileCount: 0)) == """
            error: cannot read 'HEAD:api/openapi.yaml': it has 1 file to read, \
            more than the 0 contract diff reads from a revision; nothing was read from it
            """)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temporary)) == [])
    }

    /// The standard limits, as stated in docs and messages.
    @Test func theStandardLimits() {
        // The suite's repository is made for every test, this one too.
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(RevisionLimits.standard.fileSize == 256 * 1024 * 1024)
        #expect(RevisionLimits.standard.totalSize == 1024 * 1024 * 1024)
        #expect(RevisionLimits.standard.fileCount == 200_000)
        #expect(RevisionLimits.describe(RevisionLimits.standard.fileSize) == "256 MiB (268435456 bytes)")
    }

    // MARK: Work

    /// Reading a blob of 16 MiB takes 16 times the work of one of 1 MiB: each byte read from the
    /// pipe is copied once, into a buffer made its exact size before the first byte (git gave
    /// the size), which is never moved to grow.
    @Test func readingIsLinearInTheBytesRead() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("small.json", bytes: 1 << 20)
        try write("large.json", bytes: 16 << 20)
        try run("git add small.json large.json && git commit -q -m blobs")
        let repository = try GitRepository(directory: repository, temporaryRoot: temporary)
        var work: [RevisionReadWork] = []
        for name in ["small.json", "large.json"] {
            let id = try #require(try repository.object(at: name, in: "HEAD")?.id)
            let sizes = try repository.sizes(of: [id])
            let read = try RevisionFiles.read([id], sizes: sizes, from: repository)
            #expect(read.contents[0].count == sizes[0])
            #expect(read.contents[0].first == UInt8(ascii: "\"") && read.contents[0].last == UInt8(ascii: "\""))
            work.append(read.work)
        }
        let (small, large) = (work[0], work[1])
        // Every byte of each blob copied once, and no buffer moved.
        #expect(small.bytesCopied == 1 << 20)
        #expect(large.bytesCopied == 16 << 20)
        #expect(small.reallocations == 0 && large.reallocations == 0, "\(small) \(large)")
        // What came through the pipe is the blob and git's header line (`<id> blob <size>\n`,
        // then a line feed): 16 times the bytes, to within those few.
        #expect(small.bytesRead - small.bytesCopied < 100 && large.bytesRead - large.bytesCopied < 100, "\(small) \(large)")
        #expect(large.bytesCopied == 16 * small.bytesCopied)
        // Each read returns a piece of at most 64 KiB: at least size / 64 KiB reads, and never
        // more than one per byte, so the reads grow with the bytes and nothing else.
        #expect(large.reads >= (16 << 20) / 65536 && small.reads >= (1 << 20) / 65536, "\(small) \(large)")
        #expect(large.reads <= large.bytesRead && small.reads <= small.bytesRead)
    }
}
