import Foundation
import TestSupport
import Testing

/// `contract diff REV:PATH` on a repository written by someone who wants to write files elsewhere
/// on the CI runner or run a program there: a tree whose entries git itself would never check
/// out, and a partial clone whose remote is a command. Each is a real repository made with git,
/// read by the real binary. The time limit guards against a hang, not a slow machine (as
/// DiffSourceTests').
@Suite(.timeLimit(.minutes(20)))
struct HostileRevisionTests {
    static let packageRoot = ExampleAPITests.packageRoot
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-revision-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("repo"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("outside"), withIntermediateDirectories: true)
    }

    /// git with no configuration but the repository's (none of this machine's user or system).
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = work.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        environment["GIT_AUTHOR_NAME"] = "t"
        environment["GIT_AUTHOR_EMAIL"] = "t@example.com"
        environment["GIT_COMMITTER_NAME"] = "t"
        environment["GIT_COMMITTER_EMAIL"] = "t@example.com"
        return environment
    }

    /// Runs a shell script in `folder` (under the work folder); its standard output, trimmed.
    @discardableResult
    func shell(_ script: String, in folder: String = "repo") throws -> String {
        let (status, output, error) = try ChildProcess.run("/bin/sh", ["-c", "set -e; " + script], in: work.appendingPathComponent(folder).path, environment: environment)
        guard status == 0 else {
            throw ChildProcess.SpawnError(description: "\(script): \(String(decoding: error, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func contract(_ arguments: [String], in folder: String = "repo") async throws -> ContractBinary.Result {
        try await ContractBinary.run(arguments, in: work.appendingPathComponent(folder), environment: environment)
    }

    /// What is in the `outside` folder, at any depth.
    var outside: [String] {
        (FileManager.default.subpaths(atPath: work.appendingPathComponent("outside").path) ?? ["(unreadable)"]).sorted()
    }

    /// A repository whose first commit holds the example API's document, as `openapi.yaml`.
    func repository() throws {
        try FileManager.default.copyItem(
            at: Self.packageRoot.appendingPathComponent("examples/MarketAPI/openapi.yaml"), to: work.appendingPathComponent("repo/openapi.yaml"))
        try shell("git init -q -b main && git add openapi.yaml && git commit -q -m document")
    }

    /// A branch `name` whose `contracts` tree is six levels of `fan` entries, each level the one
    /// below reused, every name `prefix` and its number: a commit of a few kilobytes that lists
    /// fan^6 files.
    func reusedTrees(branch name: String, fan: Int, prefix: String) throws {
        try shell("""
            numbers=$(seq 0 \(fan - 1))
            blob=$(printf x | git hash-object -w --stdin)
            level=$(for i in $numbers; do printf '100644 blob %s\t%s%s.json\n' $blob "\(prefix)" $i; done | git mktree)
            for depth in 1 2 3 4 5; do
              level=$(for i in $numbers; do printf '040000 tree %s\t%s%s\n' $level "\(prefix)" $i; done | git mktree)
            done
            root=$(printf '040000 tree %s\tcontracts\n' $level | git mktree)
            git update-ref refs/heads/\(name) $(git commit-tree $root -m \(name))
            """)
    }

    /// Six levels of ten: a million files and 111,111 folders listed. The listing is counted as
    /// git writes it and git stopped at the limit, so it is refused before millions are held.
    @Test func aTreeThatListsMillionsOfEntriesIsRefusedAsItIsListed() async throws {
        try repository()
        try reusedTrees(branch: "bomb", fan: 10, prefix: "f")
        let result = try await contract(["diff", "bomb:contracts", "bomb:contracts"])
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("the tree at that revision lists more than 400000 entries (folders and files, read or not) or 122 MiB of names, the most contract diff lists; nothing was read from it"), "\(result.stderr)")
    }

    /// Fewer entries with long names (six levels of eight, 80 characters each: 299,592 entries,
    /// 160 MB of listing) are refused by the listing's bytes, counted as git writes them.
    @Test func aTreeWithLongNamesIsRefusedByTheSizeOfItsListing() async throws {
        try repository()
        try reusedTrees(branch: "long", fan: 8, prefix: String(repeating: "n", count: 79))
        let result = try await contract(["diff", "long:contracts", "long:contracts"])
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("or 122 MiB of names, the most contract diff lists; nothing was read from it"), "\(result.stderr)")
    }

    /// A folder or file named `.git` (in any case) is what git never checks out (`git fsck`:
    /// hasDotgit): a tree holding one is refused before anything is read.
    @Test func aTreeWithAGitFolderIsRefused() async throws {
        try repository()
        try shell("""
            blob=$(printf '[core]\\n' | git hash-object -w --stdin)
            inner=$(printf '100644 blob %s\tconfig\n' $blob | git mktree)
            document=$(git rev-parse main:openapi.yaml)
            root=$(printf '040000 tree %s\t.GIT\n100644 blob %s\topenapi.yaml\n' $inner $document | git mktree)
            git update-ref refs/heads/dotgit $(git commit-tree $root -m dotgit)
            """)
        let result = try await contract(["diff", "dotgit:openapi.yaml", "main:openapi.yaml"])
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("has an entry named '.GIT', which git never checks out"), "\(result.stderr)")
    }

    /// A diff stopped by a signal while it copies a revision removes the copy: copies of a
    /// repository's documents must not pile up on a CI runner. git is held at the blob read (a
    /// `git` first on PATH that waits there), so the stop comes while the copy exists.
    @Test func aStoppedDiffLeavesNoCopyOfTheRevision() async throws {
        try repository()
        let bin = work.appendingPathComponent("bin")
        let temporary = work.appendingPathComponent("tmp")
        for folder in [bin, temporary] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // The blob read waits until this test lets it go, not for a fixed time: on a busy machine
        // this test's polling task could wait two minutes for a thread, and a read held for two
        // minutes then ended on its own, the diff failed and removed its copy before the test
        // looked (a CI run beside two busy loops). It also stops when the test's folder is gone,
        // and after an hour, so that nothing is left.
        let release = bin.appendingPathComponent("release").path
        defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
        // Written by a shell, not by this process: a file this process holds open for writing
        // could be inherited by a child another test spawns meanwhile, and exec would then fail
        // with ETXTBSY.
        try shell("""
            real=$(command -v git)
            printf '#!/bin/sh\\nfor argument in "$@"; do [ "$argument" = "--batch" ] && { i=0; while [ ! -e %s ] && [ -d %s ] && [ $i -lt 36000 ]; do sleep 0.1; i=$((i+1)); done; exit 0; }; done\\nexec %s "$@"\\n' '\(release)' '\(bin.path)' "$real" > ../bin/git
            chmod 755 ../bin/git
            """)
        var environment = environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["TMPDIR"] = temporary.path
        let errors = work.appendingPathComponent("stderr.txt").path
        let process = try ChildProcess(
            ContractBinary.url.path, ["diff", "main:openapi.yaml", "openapi.yaml"], in: work.appendingPathComponent("repo").path, environment: environment,
            stderr: .file(errors))
        // The copy is a folder `contract-diff-XXXXXX`; the list of objects git is asked for is
        // a file `contract-diff-objects-XXXXXX` whose name is gone as soon as it is made.
        func copies() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])
                .filter { $0.hasPrefix("contract-diff-") && !$0.hasPrefix("contract-diff-objects-") }
        }
        // Generous: on a loaded machine starting the binary is slow.
        let deadline = Date().addingTimeInterval(900)
        while copies().isEmpty, process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(copies().count == 1, "the revision is being copied: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        process.signal(SIGTERM)
        #expect(process.wait() == 128 + SIGTERM, "ended by the signal")
        #expect(copies().isEmpty, "the copy is removed")
    }

    // MARK: Trees git would not check out

    /// A tree holding both a link `a.yaml -> <outside>` and a tree `a.yaml/` (made with
    /// `git mktree`, which `git fsck` calls duplicateEntries): the copy of the document's folder
    /// created `<outside>/b.yaml`, and `<outside>/sub/c.yaml` through a folder of the link.
    @Test func aLinkAndAFolderOfOneNameWriteNothingOutside() async throws {
        try repository()
        let outsidePath = work.appendingPathComponent("outside").path
        try shell("""
            document=$(git rev-parse HEAD:openapi.yaml)
            link=$(printf '%s' '\(outsidePath)' | git hash-object -w --stdin)
            file=$(printf 'pwned: true\\n' | git hash-object -w --stdin)
            sub=$(printf '100644 blob %s\\tc.yaml\\n' "$file" | git mktree)
            inner=$(printf '100644 blob %s\\tb.yaml\\n040000 tree %s\\tsub\\n' "$file" "$sub" | git mktree)
            root=$(printf '100644 blob %s\\topenapi.yaml\\n120000 blob %s\\ta.yaml\\n040000 tree %s\\ta.yaml\\n' "$document" "$link" "$inner" | git mktree)
            git tag evil $(git commit-tree -m evil -p HEAD "$root")
            """)
        #expect(try shell("git ls-tree -r --name-only evil") == "a.yaml\na.yaml/b.yaml\na.yaml/sub/c.yaml\nopenapi.yaml")
        let result = try await contract(["diff", "evil:openapi.yaml", "openapi.yaml"])
        #expect(outside == [], "written outside the repository: \(outside)")
        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr == """
            error: cannot read 'evil:openapi.yaml': the tree at that revision has two entries named 'a.yaml' in one folder \
            (git fsck: duplicateEntries), which git never checks out; nothing was read from it
            nothing was compared

            """, "\(result.stderr)")
    }

    /// The same with the entries the other way round in the tree (a raw tree object, which
    /// `git mktree` would have sorted), and with a name holding a `/`, which makes a path the
    /// link is on the way to without a second entry of that name.
    @Test func everyOrderAndEveryNameOfSuchEntriesIsRefused() async throws {
        try repository()
        let outsidePath = work.appendingPathComponent("outside").path
        let document = try shell("git rev-parse HEAD:openapi.yaml")
        let link = try shell("printf '%s' '\(outsidePath)' | git hash-object -w --stdin")
        let file = try shell("printf 'pwned: true\\n' | git hash-object -w --stdin")
        let inner = try shell("printf '100644 blob %s\\tb.yaml\\n' \(file) | git mktree")
        let reversed = try rawTree([("40000", "a.yaml", inner), ("120000", "a.yaml", link), ("100644", "openapi.yaml", document)])
        let slashed = try rawTree([("120000", "a.yaml", link), ("100644", "a.yaml/b.yaml", file), ("100644", "openapi.yaml", document)])
        try shell("git tag reversed $(git commit-tree -m reversed -p HEAD \(reversed)) && git tag slashed $(git commit-tree -m slashed -p HEAD \(slashed))")
        #expect(try shell("git ls-tree -r --name-only reversed") == "a.yaml/b.yaml\na.yaml\nopenapi.yaml")
        #expect(try shell("git ls-tree -r --name-only slashed") == "a.yaml\na.yaml/b.yaml\nopenapi.yaml")
        let first = try await contract(["diff", "reversed:openapi.yaml", "openapi.yaml"])
        #expect(first.exitCode == 2, "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.contains("the tree at that revision has two entries named 'a.yaml' in one folder"), "\(first.stderr)")
        let second = try await contract(["diff", "slashed:openapi.yaml", "openapi.yaml"])
        #expect(second.exitCode == 2, "\(second.stdout)\(second.stderr)")
        #expect(second.stderr == """
            error: cannot read 'slashed:openapi.yaml': the tree at that revision has an entry named 'a.yaml/b.yaml', \
            which git never checks out; nothing was read from it
            nothing was compared

            """, "\(second.stderr)")
        #expect(outside == [], "written outside the repository: \(outside)")

        // A folder of contracts, read in memory, is refused the same way.
        let health = try shell("printf '{}' | git hash-object -w --stdin")
        let twice = try rawTree([("100644", "health.json", health), ("100644", "health.json", health)])
        try shell("git tag twice $(git commit-tree -m twice -p HEAD $(printf '040000 tree %s\\tcontracts\\n' \(twice) | git mktree))")
        let folder = try await contract(["diff", "twice:contracts", "twice:contracts"])
        #expect(folder.exitCode == 2, "\(folder.stdout)\(folder.stderr)")
        #expect(folder.stderr.hasPrefix("""
            error: cannot read 'twice:contracts': the tree at that revision has two entries named 'health.json' in one folder \
            (git fsck: duplicateEntries), which git never checks out; nothing was read from it
            """), "\(folder.stderr)")
    }

    /// A tree object of exactly these entries, in this order (`<mode> SP <name> NUL <20-byte id>`),
    /// written as it is: `git mktree` would sort them and refuse a name with a `/`.
    func rawTree(_ entries: [(mode: String, name: String, id: String)]) throws -> String {
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += Array("\(entry.mode) \(entry.name)".utf8) + [0]
            var hex = Substring(entry.id)
            while hex.count >= 2 {
                bytes.append(try #require(UInt8(hex.prefix(2), radix: 16)))
                hex = hex.dropFirst(2)
            }
        }
        let file = work.appendingPathComponent("tree-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        return try shell("git hash-object -t tree --literally -w \(file.path)")
    }

    // MARK: Partial clones

    /// A partial clone (`--filter=blob:none`) whose `remote.origin.uploadpack` is a command: git
    /// ran it to fetch the blob the diff asked for. The repository also allows every protocol in
    /// its own configuration, and a second clone's remote is an `ext::` command: neither may run.
    @Test func aPartialCloneNeverFetches() async throws {
        try repository()
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("contracts"), to: work.appendingPathComponent("repo/contracts"))
        try shell("git add contracts && git commit -q -m contracts && git clone -q --bare . ../origin.git && git -C ../origin.git config uploadpack.allowFilter true")
        for (clone, remote) in [("partial", "uploadpack"), ("partial-ext", "ext")] {
            let marker = work.appendingPathComponent("ran-\(remote)").path
            try shell("git clone -q --filter=blob:none --no-checkout file://\(work.path)/origin.git \(clone)", in: ".")
            if remote == "uploadpack" {
                try shell("git config remote.origin.uploadpack 'touch \(marker); git-upload-pack'", in: clone)
            } else {
                try shell("git config remote.origin.url 'ext::sh -c touch% \(marker)'", in: clone)
            }
            try shell("git config protocol.allow always && git config protocol.file.allow always && git config protocol.ext.allow always", in: clone)
            let document = try shell("git rev-parse HEAD:openapi.yaml", in: clone)
            let health = try shell("git rev-parse HEAD:contracts/health.json", in: clone)
            // The clone really lacks them.
            #expect(try shell("git rev-list --objects --missing=print HEAD | grep '^?' | cut -c2-", in: clone).split(separator: "\n").contains(Substring(document)))

            let result = try await contract(["diff", "HEAD:openapi.yaml", "HEAD:openapi.yaml"], in: clone)
            #expect(!FileManager.default.fileExists(atPath: marker), "\(remote): git ran the remote's command")
            #expect(result.exitCode == 2, "\(remote): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.hasPrefix("""
                error: cannot read 'HEAD:openapi.yaml': the object \(document) (openapi.yaml at that revision) is not in this repository, \
                which is a partial clone that left it on its remote; contract diff never fetches anything
                """), "\(remote): \(result.stderr)")

            let folder = try await contract(["diff", "HEAD:contracts", "HEAD:contracts"], in: clone)
            #expect(!FileManager.default.fileExists(atPath: marker), "\(remote): git ran the remote's command")
            #expect(folder.exitCode == 2, "\(remote): \(folder.stdout)\(folder.stderr)")
            #expect(folder.stderr.contains("is not in this repository, which is a partial clone that left it on its remote; contract diff never fetches anything"), "\(folder.stderr)")
            #expect(folder.stderr.contains(health) == folder.stderr.contains("(contracts/health.json at that revision)"), "\(folder.stderr)")
        }
    }
}
