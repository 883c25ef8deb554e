import Foundation
import TestSupport
import Testing
import Yams

/// The CI examples in examples/ci (the nightly drift gate as a GitHub Actions workflow and as a
/// GitLab CI pipeline) kept correct. Every `contract …` command they run, or their comments and
/// README show, is checked against the real binary's `--experimental-dump-help`: the subcommand
/// exists, each option is declared by it, takes a value or not as written, and each report kind
/// is one it writes. Then the plumbing: as many shards as `--shard i/n` says, the merge reads
/// exactly the reports the shards upload, the Markdown reaches `$GITHUB_STEP_SUMMARY`, the merged
/// HTML, JSON and JUnit are artifacts; the app's tests record usage beside the shards and upload
/// it, the coverage reads that usage and every shard's report, gates on used-unverified in a job
/// of its own, puts its Markdown on the summary page and keeps its HTML and JSON. Last, both
/// files' scripts run as their CI would run them, against the example API (the app's test run
/// stood in for, see CISimulation): new drift fails the merge, the baseline updated from the
/// merged report makes it pass, a missing shard fails it; the coverage fails on the case the
/// app's tests use that the drifting API breaks, and passes on the API that keeps its contracts.
@Suite(.serialized)
struct ExampleCITests {
    static let gitHubFile = "examples/ci/github/contract-nightly.yml"
    static let gitLabFile = "examples/ci/gitlab/contract-nightly.gitlab-ci.yml"
    static let readmeFile = "examples/ci/README.md"

    static func text(_ path: String) throws -> String {
        try String(contentsOf: ExampleAPITests.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func commandSpec() async throws -> CommandSpec {
        let result = try await ContractBinary.run(["--experimental-dump-help"], in: ExampleAPITests.packageRoot)
        try #require(result.exitCode == 0, "\(result.stderr)")
        return try CommandSpec(dumpHelp: Data(result.stdout.utf8))
    }

    // MARK: What the files say

    @Test func theGitHubWorkflowRunsRealCommandsWithMatchingShardsAndReports() async throws {
        let problems = try GitHubCheck.problems(try Self.text(Self.gitHubFile), spec: try await Self.commandSpec())
        #expect(problems.isEmpty, "\(Self.gitHubFile):\n\(problems.joined(separator: "\n"))")
    }

    @Test func theGitLabPipelineRunsRealCommandsWithMatchingShardsAndReports() async throws {
        let problems = try GitLabCheck.problems(try Self.text(Self.gitLabFile), spec: try await Self.commandSpec())
        #expect(problems.isEmpty, "\(Self.gitLabFile):\n\(problems.joined(separator: "\n"))")
    }

    /// The commands a team copies from the comments (updating the baseline) and the README.
    @Test func theCommandsInCommentsAndTheReadmeAreRealToo() async throws {
        let spec = try await Self.commandSpec()
        var checked = 0
        for file in [Self.gitHubFile, Self.gitLabFile, Self.readmeFile] {
            let lines = file.hasSuffix(".md") ? Documentation.commandLines(markdown: try Self.text(file)) : Documentation.commandLines(yamlComments: try Self.text(file))
            for line in lines {
                for command in Shell.commands(line) where command.isContract {
                    checked += 1
                    let invocation = Invocation(command.words, spec: spec)
                    #expect(invocation.problems.isEmpty, "\(file): \(line)\n\(invocation.problems.joined(separator: "\n"))")
                }
            }
        }
        #expect(checked >= 4, "the comments and the README show how to update the baseline")
    }

    /// The checks fail on the mistakes they exist for: each change below, made to a copy of a
    /// file, is reported.
    @Test func aMistakeInEitherFileIsReported() async throws {
        let spec = try await Self.commandSpec()
        let gitHub = try Self.text(Self.gitHubFile)
        let gitHubMistakes: [(String, String, String)] = [
            ("--baseline contracts.baseline.json", "--baselin contracts.baseline.json", "no option --baselin"),
            ("--color never \\\n", "--colour never \\\n", "no option --colour"),
            ("--color never || code=$?", "--color nevr || code=$?", "'nevr'"),
            ("--report html=", "--report htm=", "'htm'"),
            ("contract merge reports", "contract merg reports", "'merg'"),
            ("shard: [1, 2, 3, 4]", "shard: [1, 2, 3]", "matrix"),
            ("--shard ${{ matrix.shard }}/4", "--shard ${{ matrix.shard }}/5", "matrix"),
            ("contract merge reports/shard-*.json", "contract merge report/shard-*.json", "does not read shard 1"),
            (#">> "$GITHUB_STEP_SUMMARY""#, ">> summary.md", "GITHUB_STEP_SUMMARY"),
            ("            merged/contract-report.html\n", "", "html report"),
            ("fail-fast: false", "fail-fast: true", "fail-fast"),
            // The app's tests and their usage.
            ("  app-tests:\n    runs-on:", "  app-tests:\n    needs: verify\n    runs-on:", "waits for the shards"),
            (#"export CONTRACT_USAGE_DIR="$PWD/contract-usage""#, #"CONTRACT_USAGE_DIR="$PWD/contract-usage""#, "not exported"),
            (#"export CONTRACT_USAGE_DIR="$PWD/contract-usage""#, "export CONTRACT_USAGE_DIR=contract-usage", "write to examples/MarketClient/contract-usage"),
            (#"export CONTRACT_USAGE_DIR="$PWD/contract-usage""#, #"export CONTRACT_USAGE_DIR="${{ github.workspace }}/contract-usage""#, "the runner's path"),
            (#"export CONTRACT_USAGE_DIR="$PWD/contract-usage""#, #"export TEST_RUNNER_CONTRACT_USAGE_DIR="$PWD/contract-usage""#, "is xcodebuild's"),
            ("          path: contract-usage/\n", "          path: usage/\n", "uploads the usage they write to contract-usage"),
            ("          if-no-files-found: error\n", "", "if-no-files-found: error"),
            // The coverage: its inputs, its gate, its reports.
            ("    needs: [build, verify, app-tests]\n", "    needs: [build, verify]\n", "does not need app-tests"),
            ("not when the run was cancelled.\n    if: ${{ !cancelled() }}\n    runs-on: ubuntu-24.04\n    container: swift:6.3-noble\n    timeout-minutes: 10\n    steps:\n      - uses: actions/checkout",
             "not when the run was cancelled.\n    runs-on: ubuntu-24.04\n    container: swift:6.3-noble\n    timeout-minutes: 10\n    steps:\n      - uses: actions/checkout",
             "runs only when every shard and the app's tests passed"),
            ("  coverage:\n    needs:", "  coverage:\n    continue-on-error: true\n    needs:", "is a gate"),
            ("      - uses: actions/checkout@v4     # the contracts the cases come from\n", "", "no checkout before the coverage"),
            ("contract coverage contracts \\\n", "contract coverage contract \\\n", "reads the contracts in contract,"),
            ("          path: contract-usage\n", "          path: usage\n", "lands in usage"),
            ("            --verify-report reports/shard-4.json \\\n", "", "does not read shard 4"),
            ("--verify-report reports/shard-4.json", "--verify-report reports/shard-5.json", "reads reports/shard-5.json, which no shard uploads"),
            ("--fail-on used-unverified \\\n", "--fail-on invalid-requests \\\n", "does not fail on used-unverified"),
            ("--fail-on used-unverified \\\n", "--fail-on used-unverified uncovered-operations \\\n", "--fail-on uncovered-operations needs --openapi"),
            ("--fail-on used-unverified \\\n", "--fail-on used-unverified contracts \\\n", "found 'contracts'"),
            (#"cat coverage/contract-coverage.md >> "$GITHUB_STEP_SUMMARY""#, "cat coverage/contract-coverage.md", "contract-coverage.md is not appended"),
            ("            coverage/contract-coverage.json\n", "", "coverage's json report"),
        ]
        for (original, mistake, expected) in gitHubMistakes {
            #expect(gitHub.contains(original), "the example changed: update this test's mistake '\(original)'")
            let problems = try GitHubCheck.problems(gitHub.replacingOccurrences(of: original, with: mistake), spec: spec)
            #expect(problems.contains { $0.contains(expected) }, "'\(original)' -> '\(mistake)' not reported as '\(expected)': \(problems)")
        }
        let gitLab = try Self.text(Self.gitLabFile)
        let gitLabMistakes: [(String, String, String)] = [
            ("--baseline contracts.baseline.json", "--baseline=contracts.baseline.json --fail-on", "needs a value"),
            ("--quiet --color never\n      contracts", "--quite --color never\n      contracts", "no option --quite"),
            (#"--shard "$CI_NODE_INDEX/$CI_NODE_TOTAL""#, #"--shard "$CI_NODE_INDEX/5""#, "parallel: 4"),
            ("--report junit=", "--report xunit=", "'xunit'"),
            ("      - reports/\n", "      - report/\n", "artifacts"),
            ("contract merge reports/shard-*.json", "contract merge reports/shard-1.json", "does not read shard 2"),
            ("      junit: merged/contract-junit.xml", "      junit: merged/junit.xml", "JUnit"),
            ("      when: always\n  script:", "  script:", "when: always"),
            ("exit_codes: [1, 3]", "exit_codes: [1, 2, 3]", "exits 2"),
            // The app's tests and their usage.
            ("  needs: []\n", "  needs: [contract-verify]\n", "waits for the shards"),
            ("contract-app-tests:\n  extends: .contract-nightly\n", "contract-app-tests:\n  image: swift:6.3-noble\n", "contract-app-tests: no rule runs it"),
            (#"- export CONTRACT_USAGE_DIR="$PWD/contract-usage""#, #"- CONTRACT_USAGE_DIR="$PWD/contract-usage""#, "not exported"),
            ("      - contract-usage/\n", "      - usage/\n", "in none of its artifacts"),
            // The coverage: its inputs, its gate, its reports.
            ("  needs: [contract-build, contract-verify, contract-app-tests]\n", "  needs: [contract-build, contract-verify]\n", "needs does not list contract-app-tests"),
            ("      when: always\n  # One --verify-report", "  # One --verify-report", "runs only when every shard and the app's tests passed"),
            ("  needs: [contract-build, contract-verify, contract-app-tests]\n", "  needs: [contract-build, contract-verify, contract-app-tests]\n  allow_failure: true\n", "is a gate"),
            ("      --usage contract-usage\n", "      --usage usage\n", "keep theirs in contract-usage"),
            ("      --verify-report reports/shard-4.json\n", "", "does not read shard 4"),
            ("      --fail-on used-unverified\n", "      --fail-on used-unverified\n      contracts\n", "found 'contracts'"),
            ("    when: always\n    paths:\n      - coverage/\n", "    paths:\n      - coverage/\n", "kept only when its gate passed"),
            ("      - coverage/\n", "      - coverage/contract-coverage.html\n", "json report coverage/contract-coverage.json is in none"),
        ]
        for (original, mistake, expected) in gitLabMistakes {
            #expect(gitLab.contains(original), "the example changed: update this test's mistake '\(original)'")
            let problems = try GitLabCheck.problems(gitLab.replacingOccurrences(of: original, with: mistake), spec: spec)
            #expect(problems.contains { $0.contains(expected) }, "'\(original)' -> '\(mistake)' not reported as '\(expected)': \(problems)")
        }
    }

    // MARK: What the scripts do

    /// The workflow's shard and merge steps, run by bash as Actions runs them (`-eo pipefail`), the
    /// artifacts passed as upload-artifact and download-artifact pass them.
    @Test func theGitHubWorkflowGatesOnTheMergedRun() async throws {
        try await gateScenario { try CISimulation.gitHub(try Self.text(Self.gitHubFile), $0) }
    }

    /// The pipeline's shard and merge scripts, run as a GitLab runner runs them, with the shards'
    /// artifacts in the merge job's folder.
    @Test func theGitLabPipelineGatesOnTheMergedRun() async throws {
        try await gateScenario { try CISimulation.gitLab(try Self.text(Self.gitLabFile), $0) }
    }

    /// Four nights. Against the drifting example API: with an empty baseline both gates are red
    /// (the merge exits 1 for the new drift; the coverage 1 for products.get/found, a case the
    /// app's tests use that the API broke); with the baseline `contract baseline` wrote from the
    /// merged JSON report the merge is green (0) and the coverage still red (1), since the baseline
    /// excuses no case the app relies on; with a shard missing both are red (2). Against the API
    /// that keeps its contracts both are green (0).
    ///
    /// The app's tests do not run: a stand-in for `swift test` writes the usage they would (see
    /// CISimulation); the app tests job's own lines run, so that usage reaches the coverage only
    /// through the variable, the upload and the download the files write.
    func gateScenario(_ simulate: @escaping @Sendable (CISimulation.Night) throws -> CISimulation.Outcome) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-ci-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("baseline.json")
        try #"{"format": "contract-verify-baseline", "version": 1, "findings": []}"#.write(to: baseline, atomically: true, encoding: .utf8)
        let server = try await ExampleAPITests.RunningServer.started(["--drift"])

        let first = try await onOwnThread { try simulate(.init(folder: folder.appendingPathComponent("first"), baseURL: server.baseURL, baseline: baseline)) }
        #expect(first.mergeCode == 1, "new drift fails the gate:\n\(first.log)")
        #expect(first.shardCodes.count == 4, "\(first.log)")
        #expect(first.shardCodes.allSatisfy { [0, 1].contains($0) } && first.shardCodes.contains(1), "\(first.shardCodes)\n\(first.log)")
        #expect(first.missingArtifacts.isEmpty, "\(first.missingArtifacts)\n\(first.log)")
        if first.hasStepSummary {
            #expect(first.summary?.contains("products.create/created") == true, "the step summary has the merged Markdown: \(first.summary?.prefix(500) ?? "none")")
            #expect(
                first.coverageSummary?.contains("products.get/found") == true,
                "the coverage's step summary names the case: \(first.coverageSummary?.prefix(500) ?? "none")")
        }
        #expect(first.appTestsCode == 0, "\(first.log)")
        #expect(first.coverageCode == 1, "a case the app's tests use that the API broke fails the coverage gate:\n\(first.log)")
        try expectCoverage(first, gaps: ["products.get/found"])

        // The baseline updated from the merged run, as the comments and the README say.
        let mergedJSON = try #require(first.mergedJSON, "the merge writes a JSON report\n\(first.log)")
        let updated = try await ContractBinary.run(["baseline", mergedJSON.path, "--out", baseline.path, "--reason", "known"], in: folder)
        #expect(updated.exitCode == 0, "\(updated.stderr)")

        let second = try await onOwnThread { try simulate(.init(folder: folder.appendingPathComponent("second"), baseURL: server.baseURL, baseline: baseline)) }
        #expect(second.mergeCode == 0, "known drift passes the gate:\n\(second.log)")
        #expect(second.missingArtifacts.isEmpty, "\(second.missingArtifacts)\n\(second.log)")
        #expect(second.coverageCode == 1, "the baseline excuses no case the app's tests rely on:\n\(second.log)")
        try expectCoverage(second, gaps: ["products.get/found"])

        let third = try await onOwnThread {
            try simulate(.init(folder: folder.appendingPathComponent("third"), baseURL: server.baseURL, baseline: baseline, skippedShard: 2))
        }
        #expect(third.shardCodes.count == 3)
        #expect(third.mergeCode == 2, "a missing shard fails the gate:\n\(third.log)")
        #expect(third.log.contains("shard 2"), "the merge names the missing shard:\n\(third.log)")
        #expect(third.coverageCode == 2, "the coverage reads no partial run:\n\(third.log)")
        #expect(third.log.contains("shard 2/4 is missing"), "the coverage names the missing shard:\n\(third.log)")

        let kept = try await ExampleAPITests.RunningServer.started([])
        let fourth = try await onOwnThread {
            try simulate(.init(folder: folder.appendingPathComponent("fourth"), baseURL: kept.baseURL, baseline: baseline))
        }
        #expect(fourth.mergeCode == 0, "\(fourth.log)")
        #expect(fourth.coverageCode == 0, "every case the app's tests use was kept:\n\(fourth.log)")
        #expect(fourth.missingArtifacts.isEmpty, "\(fourth.missingArtifacts)\n\(fourth.log)")
        try expectCoverage(fourth, gaps: [])
    }

    /// The coverage's JSON report: the usage the app's tests uploaded reached it whole (the two
    /// cases, products.get/found from two tests), and its gate names these cases.
    func expectCoverage(_ outcome: CISimulation.Outcome, gaps expected: [String]) throws {
        let file = try #require(outcome.coverageJSON, "the coverage writes its JSON report\n\(outcome.log)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var used: [String: Int] = [:]
        for item in report["cases"] as? [[String: Any]] ?? [] {
            if let id = item["id"] as? String, let tests = (item["usage"] as? [String: Any])?["tests"] as? [String], !tests.isEmpty { used[id] = tests.count }
        }
        #expect(used == ["products.get/found": 2, "products.get/missing": 1], "the cases the app's tests use, by their number of tests: \(used)")
        let gaps = ((report["gate"] as? [String: Any])?["gaps"] as? [[String: Any]] ?? []).map { "\($0["rule"] ?? "") \($0["subject"] ?? "")" }
        #expect(gaps == expected.map { "used-unverified \($0)" }, "\(gaps)\n\(outcome.log)")
    }
}

// MARK: - The commands and options of the binary

/// `contract --experimental-dump-help`: every command with its arguments.
struct CommandSpec {
    struct Argument {
        var longNames: [String]
        var shortNames: [String]
        var kind: String  // flag, option, positional
        var isOptional: Bool
        var isRepeating: Bool
        var allValues: [String]
        var abstract: String
        /// `upToNextOption` takes every word up to the next option (`--fail-on a b`); otherwise one.
        var parsing: String
    }

    var name: String
    var arguments: [Argument]
    var subcommands: [CommandSpec]

    init(dumpHelp data: Data) throws {
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let command = object?["command"] as? [String: Any] else { throw CIExampleError("no 'command' in the dump") }
        self.init(command)
    }

    init(_ json: [String: Any]) {
        name = json["commandName"] as? String ?? ""
        arguments = (json["arguments"] as? [[String: Any]] ?? []).map { argument in
            let names = argument["names"] as? [[String: Any]] ?? []
            func named(_ kinds: Set<String>) -> [String] {
                names.filter { kinds.contains($0["kind"] as? String ?? "") }.compactMap { $0["name"] as? String }
            }
            return Argument(
                longNames: named(["long", "longWithSingleDash"]), shortNames: named(["short"]),
                kind: argument["kind"] as? String ?? "", isOptional: argument["isOptional"] as? Bool ?? true,
                isRepeating: argument["isRepeating"] as? Bool ?? false, allValues: argument["allValues"] as? [String] ?? [],
                abstract: argument["abstract"] as? String ?? "", parsing: argument["parsingStrategy"] as? String ?? "default")
        }
        subcommands = (json["subcommands"] as? [[String: Any]] ?? []).map(CommandSpec.init)
    }
}

/// One `contract …` command line, parsed as swift-argument-parser would parse it against the
/// spec, with what it gets wrong.
struct Invocation {
    var command: [String] = ["contract"]
    var options: [(name: String, value: String?)] = []
    var positionals: [String] = []
    var problems: [String] = []

    func values(_ name: String) -> [String] { options.filter { $0.name == name }.compactMap(\.value) }
    func value(_ name: String) -> String? { values(name).first }

    /// `--report KIND=PATH`, by kind.
    var reports: [String: String] {
        var reports: [String: String] = [:]
        for value in values("report") {
            if let equals = value.firstIndex(of: "=") { reports[String(value[..<equals])] = String(value[value.index(after: equals)...]) }
        }
        return reports
    }

    init(_ words: [String], spec root: CommandSpec) {
        var spec = root
        var index = 1
        while index < words.count, let sub = spec.subcommands.first(where: { $0.name == words[index] }) {
            spec = sub
            command.append(sub.name)
            index += 1
        }
        let name = command.joined(separator: " ")
        let subcommands = spec.subcommands.map(\.name).filter { $0 != "help" }
        if !subcommands.isEmpty {
            let found = index < words.count ? "'\(words[index])'" : "nothing"
            problems.append("'\(name)' has no subcommand \(found) (it has \(subcommands.joined(separator: ", ")))")
            return
        }
        let declared = spec.arguments.flatMap { $0.longNames.map { "--\($0)" } }.filter { $0 != "--help" && $0 != "--version" }
        var counts: [String: Int] = [:]
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            var flag = word
            var inline: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                flag = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            let argument =
                flag.hasPrefix("--")
                ? spec.arguments.first { $0.kind != "positional" && $0.longNames.contains(String(flag.dropFirst(2))) }
                : spec.arguments.first { $0.kind != "positional" && $0.shortNames.contains(String(flag.dropFirst())) }
            guard let argument else {
                problems.append("'\(name)' has no option \(flag) (it has \(declared.joined(separator: ", ")))")
                continue
            }
            let key = argument.longNames.first ?? argument.shortNames.first ?? flag
            counts[key, default: 0] += 1
            if counts[key] == 2 && !argument.isRepeating { problems.append("'\(name)': --\(key) given twice") }
            if argument.kind == "flag" {
                if inline != nil { problems.append("'\(name)': \(flag) is a flag and takes no value, found '\(word)'") }
                options.append((key, nil))
                continue
            }
            var values = inline.map { [$0] } ?? []
            // One value, or with upToNextOption every word up to the next option: then a
            // positional written after it (`--fail-on used-unverified contracts`) is taken as a value.
            while index < words.count, !words[index].hasPrefix("-"), values.isEmpty || (inline == nil && argument.parsing == "upToNextOption") {
                values.append(words[index])
                index += 1
            }
            if values.isEmpty {
                problems.append("'\(name)': \(flag) needs a value")
                continue
            }
            for value in values {
                options.append((key, value))
                if !argument.allValues.isEmpty, !value.contains("$"), !argument.allValues.contains(value) {
                    problems.append("'\(name)': \(flag) takes \(argument.allValues.joined(separator: ", ")), found '\(value)'")
                }
            }
            guard let value = values.first else { continue }
            if key == "report" {
                // The kinds a command writes are the ones its --report help lists as 'KIND=PATH'.
                let kind = value.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if !value.contains("=") || !argument.abstract.contains("'\(kind)=") {
                    problems.append("'\(name)' writes no report of kind '\(kind)' (--report: \(argument.abstract))")
                }
            }
        }
        let positional = spec.arguments.filter { $0.kind == "positional" }
        if !positional.contains(where: \.isRepeating), positionals.count > positional.count {
            problems.append("'\(name)' takes at most \(positional.count) arguments, found \(positionals)")
        }
        if positionals.count < positional.filter({ !$0.isOptional }).count {
            problems.append("'\(name)' needs \(positional.filter { !$0.isOptional }.count) arguments, found \(positionals)")
        }
        for argument in spec.arguments where argument.kind == "option" && !argument.isOptional {
            if let long = argument.longNames.first, counts[long] == nil { problems.append("'\(name)' needs --\(long)") }
        }
    }
}

// MARK: - Shell scripts

struct ShellCommand {
    var words: [String]
    var redirects: [(op: String, target: String)]
    /// `NAME=value` written before the command (or alone, with no command).
    var assignments: [(name: String, value: String)] = []

    /// `contract …` or `path/to/contract …`.
    var isContract: Bool { words.first.map { $0 == "contract" || $0.hasSuffix("/contract") } ?? false }

    /// The variables `export NAME=value` gives every later command.
    var exported: [(name: String, value: String)] {
        guard words.first == "export" else { return [] }
        return words.dropFirst().compactMap(ShellCommand.assignment)
    }

    static func assignment(_ word: String) -> (name: String, value: String)? {
        guard word.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*=.*/#) != nil, let equals = word.firstIndex(of: "=") else { return nil }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
}

/// Enough of the shell to find the commands of a CI script: continuations joined, comments
/// dropped, quotes removed, `$VARIABLES` left as written; split at newlines, `;`, `&&`, `||`
/// and `|`; redirections apart; leading keywords (`if`, `then`…) dropped, leading assignments
/// kept apart (a line of assignments alone is a command without words).
enum Shell {
    static let keywords: Set<String> = ["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time", "exec"]

    static func commands(_ script: String) -> [ShellCommand] {
        let characters = Array(script)
        var commands: [ShellCommand] = []
        var words: [String] = []
        var redirects: [(op: String, target: String)] = []
        var word: String?
        var pendingRedirect: String?
        func endWord() {
            guard let finished = word else { return }
            word = nil
            if let op = pendingRedirect {
                redirects.append((op, finished))
                pendingRedirect = nil
            } else {
                words.append(finished)
            }
        }
        func endCommand() {
            endWord()
            var assignments: [(name: String, value: String)] = []
            while let first = words.first, keywords.contains(first) || ShellCommand.assignment(first) != nil {
                if let assignment = ShellCommand.assignment(first) { assignments.append(assignment) }
                words.removeFirst()
            }
            if !words.isEmpty || !redirects.isEmpty || !assignments.isEmpty {
                commands.append(ShellCommand(words: words, redirects: redirects, assignments: assignments))
            }
            words = []
            redirects = []
            pendingRedirect = nil
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                if index + 1 < characters.count, characters[index + 1] != "\n" { word = (word ?? "") + String(characters[index + 1]) }
                index += 2
            case "'":
                var text = word ?? ""
                index += 1
                while index < characters.count, characters[index] != "'" {
                    text.append(characters[index])
                    index += 1
                }
                word = text
                index += 1
            case "\"":
                var text = word ?? ""
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count, "\"\\$`\n".contains(characters[index + 1]) {
                        if characters[index + 1] != "\n" { text.append(characters[index + 1]) }
                        index += 2
                        continue
                    }
                    text.append(characters[index])
                    index += 1
                }
                word = text
                index += 1
            case " ", "\t":
                endWord()
                index += 1
            case "\n", ";":
                endCommand()
                index += 1
            case "&", "|":
                endCommand()
                index += index + 1 < characters.count && characters[index + 1] == character ? 2 : 1
            case ">", "<":
                // A file descriptor written just before (2>&1) belongs to the operator.
                if let current = word, current.allSatisfy(\.isNumber) { word = nil } else { endWord() }
                var op = String(character)
                index += 1
                while index < characters.count, characters[index] == ">" || characters[index] == "&" {
                    op.append(characters[index])
                    index += 1
                }
                pendingRedirect = op
            case "#" where word == nil:
                while index < characters.count, characters[index] != "\n" { index += 1 }
            default:
                word = (word ?? "") + String(character)
                index += 1
            }
        }
        endCommand()
        return commands
    }

    /// `${{ matrix.shard }}` as one word, `${{matrix.shard}}`, so the script can be split.
    static func compactExpressions(_ text: String) -> String {
        text.replacing(#/\$\{\{(.*?)\}\}/#) { match in "${{" + match.output.1.filter { !$0.isWhitespace } + "}}" }
    }

    /// Replaces `${{X}}` (as compactExpressions writes it) and `$X` / `${X}` by the values given.
    static func expand(_ text: String, _ values: [String: String]) -> String {
        var result = compactExpressions(text).replacing(#/\$\{\{([^}]*)\}\}/#) { match in values[String(match.output.1)] ?? String(match.output.0) }
        result = result.replacing(#/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/#) { match in values[String(match.output.1)] ?? String(match.output.0) }
        return result
    }

    /// The shell variables a text uses.
    static func variables(_ text: String) -> [String] {
        text.matches(of: #/\$\{?([A-Za-z_][A-Za-z0-9_]*)/#).map { String($0.output.1) }
    }
}

/// The `contract …` lines shown in YAML comments and in a README.
enum Documentation {
    static func commandLines(yamlComments text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("#"), let start = trimmed.firstMatch(of: #/contract (verify|merge|baseline|coverage|lint|fixtures|import)\b/#) else { return nil }
            return String(trimmed[start.range.lowerBound...])
        }
    }

    /// Lines of fenced code blocks, and inline code spans (which may wrap), that start with `contract `.
    static func commandLines(markdown text: String) -> [String] {
        var lines: [String] = []
        var prose = ""
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A fence may be indented, inside a list item.
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            if inBlock {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("contract ") { lines.append(trimmed) }
            } else {
                prose += line + " "
            }
        }
        return lines + prose.matches(of: #/`(contract [^`]+)`/#).map { String($0.output.1) }
    }
}

// MARK: - The app's test run

/// A CI script that runs the app's unit tests with `CONTRACT_USAGE_DIR`, and where their usage
/// files land: the folder as the test process sees it, relative to the job's folder.
struct UsageRecording {
    static let variable = "CONTRACT_USAGE_DIR"
    /// What xcodebuild hands the test process as CONTRACT_USAGE_DIR (it strips the prefix).
    static let xcodebuildVariable = "TEST_RUNNER_CONTRACT_USAGE_DIR"
    /// How a script names the job's own folder.
    static let jobFolders = ["$PWD/", "${PWD}/", "$GITHUB_WORKSPACE/", "${GITHUB_WORKSPACE}/", "$CI_PROJECT_DIR/", "${CI_PROJECT_DIR}/"]

    /// The folder, relative to the job's folder; nil when it cannot be told (then a problem says why).
    var folder: String?
    var problems: [String] = []

    /// nil when the script neither sets the variable nor is given it. `environment` is what the CI
    /// file sets for the script (a step's `env:`, a job's `variables:`); `inContainer`, a GitHub job
    /// with a `container:`.
    init?(script: String, environment: [(name: String, value: String)], inContainer: Bool = false) {
        let commands = Shell.commands(script)
        let names = [Self.variable, Self.xcodebuildVariable]
        let isTests = { (command: ShellCommand) in
            (command.words.first == "swift" && command.words.dropFirst().first == "test")
                || (command.words.first == "xcodebuild" && command.words.contains { $0 == "test" || $0 == "test-without-building" })
        }
        let testIndex = commands.firstIndex(where: isTests)
        // What reaches the test process: the CI file's environment, `export`s before it, and
        // assignments written before the test command itself.
        var given = environment.filter { names.contains($0.name) }
        for command in commands.prefix(testIndex ?? commands.count) { given += command.exported.filter { names.contains($0.name) } }
        if let testIndex { given += commands[testIndex].assignments.filter { names.contains($0.name) } }
        let bare = commands.prefix(testIndex ?? commands.count).filter { $0.words.isEmpty }.flatMap(\.assignments).filter { names.contains($0.name) }
        guard !given.isEmpty || !bare.isEmpty else { return nil }
        guard let testIndex else {
            problems.append("sets \(Self.variable) but runs no tests (swift test, xcodebuild test)")
            return
        }
        let test = commands[testIndex]
        let wanted = test.words.first == "xcodebuild" ? Self.xcodebuildVariable : Self.variable
        guard let value = given.last(where: { $0.name == wanted })?.value else {
            if let other = bare.first(where: { $0.name == wanted }) {
                problems.append("\(other.name) is set but not exported: the test process never sees it (export it, or write it before the test command)")
            } else if test.words.first == "xcodebuild" {
                problems.append("xcodebuild hands the test process only TEST_RUNNER_ variables: set \(Self.xcodebuildVariable), not \(Self.variable)")
            } else {
                problems.append("\(Self.xcodebuildVariable) is xcodebuild's: '\(test.words.joined(separator: " "))' gives the test process \(Self.variable)")
            }
            return
        }
        if inContainer, value.contains("github.workspace") {
            problems.append("\(wanted) is under github.workspace, the runner's path, not the container's: use $PWD or $GITHUB_WORKSPACE in the script")
            return
        }
        if let prefix = (Self.jobFolders + ["${{github.workspace}}/"]).first(where: { value.hasPrefix($0) }) {
            folder = CIPaths.normal(String(value.dropFirst(prefix.count)))
        } else if value.hasPrefix("/") {
            folder = value
        } else if value.contains("$") {
            problems.append("\(wanted)=\(value): the check cannot tell where that is; name the folder from $PWD")
        } else if let option = test.words.firstIndex(of: "--package-path"), option + 1 < test.words.count {
            // SwiftPM works in the package's folder: a relative folder is taken from there.
            folder = CIPaths.join(test.words[option + 1], value)
        } else {
            folder = CIPaths.normal(value)
        }
        if let folder, folder.isEmpty || folder == "." { problems.append("\(wanted) names the job's folder itself: name a folder for the usage files alone") }
    }
}

// MARK: - YAML

/// A YAML document as plain values: every scalar the string written (so `on:` stays "on" and
/// `4` is "4"), mappings in order.
indirect enum YAMLValue {
    case scalar(String)
    case list([YAMLValue])
    case map([(key: String, value: YAMLValue)])

    static func parse(_ text: String) throws -> YAMLValue {
        guard let node = try Yams.compose(yaml: text) else { throw CIExampleError("an empty YAML document") }
        return try YAMLValue(node)
    }

    init(_ node: Node) throws {
        switch node {
        case .scalar(let scalar):
            self = .scalar(scalar.string)
        case .sequence(let sequence):
            self = .list(try sequence.map(YAMLValue.init))
        case .mapping(let mapping):
            self = .map(
                try mapping.map { pair in
                    guard let key = pair.key.scalar?.string else { throw CIExampleError("a mapping key that is not a scalar") }
                    return (key, try YAMLValue(pair.value))
                })
        case .alias:
            throw CIExampleError("an alias (the check reads no anchors)")
        }
    }

    subscript(key: String) -> YAMLValue? {
        if case .map(let pairs) = self { return pairs.first { $0.key == key }?.value }
        return nil
    }

    var string: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    var list: [YAMLValue] {
        if case .list(let items) = self { return items }
        return []
    }

    var pairs: [(key: String, value: YAMLValue)] {
        if case .map(let pairs) = self { return pairs }
        return []
    }

    /// A scalar or a list of scalars (`needs: build`, `needs: [build, verify]`); GitLab's
    /// `needs: [{job: name}]` by job name.
    var strings: [String] {
        switch self {
        case .scalar(let text): return [text]
        case .list(let items): return items.compactMap { $0.string ?? $0["job"]?.string }
        case .map: return []
        }
    }

    /// GitLab's `extends`: mappings merged key by key, anything else replaced.
    func merged(over base: YAMLValue) -> YAMLValue {
        guard case .map(let own) = self, case .map(var result) = base else { return self }
        for (key, value) in own {
            if let index = result.firstIndex(where: { $0.key == key }) {
                result[index].value = value.merged(over: result[index].value)
            } else {
                result.append((key, value))
            }
        }
        return .map(result)
    }
}

struct CIExampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

// MARK: - Paths

enum CIPaths {
    static func normal(_ path: String) -> String {
        var path = path.trimmingCharacters(in: .whitespaces)
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }

    static func join(_ folder: String, _ name: String) -> String {
        let folder = normal(folder)
        return folder.isEmpty || folder == "." ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }

    static func basename(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    /// A shell or artifact glob: `*` and `?` within a path segment.
    static func glob(_ pattern: String, matches path: String) -> Bool {
        func match(_ p: ArraySlice<Character>, _ s: ArraySlice<Character>) -> Bool {
            guard let first = p.first else { return s.isEmpty }
            if first == "*" {
                var rest = s
                while true {
                    if match(p.dropFirst(), rest) { return true }
                    guard let next = rest.first, next != "/" else { return false }
                    rest = rest.dropFirst()
                }
            }
            guard let head = s.first, first == "?" ? head != "/" : first == head else { return false }
            return match(p.dropFirst(), s.dropFirst())
        }
        return match(ArraySlice(normal(pattern)), ArraySlice(normal(path)))
    }

    /// Whether an artifact path (a file, a folder, a glob) takes in this file.
    static func covers(_ artifactPath: String, _ file: String) -> Bool {
        let entry = normal(artifactPath)
        let file = normal(file)
        if entry.hasSuffix("/") { return file.hasPrefix(entry) }
        return entry == file || file.hasPrefix(entry + "/") || glob(entry, matches: file)
    }

    /// The lines of a multi-line `path:` input.
    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").map { normal(String($0)) }.filter { !$0.isEmpty }
    }

    static func parent(_ path: String) -> String { normal(path).split(separator: "/").dropLast().joined(separator: "/") }

    /// A file's path inside the artifact upload-artifact makes of these paths, or nil when none
    /// takes it in. The artifact's root is the deepest folder the paths share: a folder is its
    /// own, a file's is its folder, a glob's the folder before it.
    static func inArtifact(_ uploadPaths: [String], file: String) -> String? {
        let file = normal(file)
        guard uploadPaths.contains(where: { covers($0, file) }) else { return nil }
        func root(_ path: String) -> [Substring] {
            let path = normal(path)
            let folder: String
            if let glob = path.firstIndex(where: { "*?[".contains($0) }) {
                folder = parent(String(path[..<glob]) + "x")
            } else if path.hasSuffix("/") || file.hasPrefix(path + "/") {
                folder = path
            } else {
                folder = parent(path)
            }
            return folder.split(separator: "/")
        }
        var common = root(uploadPaths[0])
        for path in uploadPaths.dropFirst() { common = Array(zip(common, root(path)).prefix { $0 == $1 }.map(\.0)) }
        return common.isEmpty ? file : String(file.dropFirst(common.joined(separator: "/").count + 1))
    }
}

// MARK: - GitHub Actions

enum GitHubCheck {
    struct Found {
        var job: String
        var jobBody: YAMLValue
        var step: Int
        var script: String
        var invocation: Invocation
    }

    static func isAlways(_ condition: String?) -> Bool {
        guard let condition else { return false }
        return condition.contains("always()") || condition.contains("!cancelled()")
    }

    static func uses(_ step: YAMLValue, _ action: String) -> Bool { step["uses"]?.string?.hasPrefix(action + "@") ?? false }

    /// Where a file an artifact holds (at `inArtifact` inside it) lands in a job: through the first
    /// download-artifact step before `step` that takes the artifact; nil when none does.
    static func downloaded(_ steps: [YAMLValue], before step: Int, artifact: String, file inArtifact: String) -> String? {
        let download = steps.prefix(step).first { step in
            guard uses(step, "actions/download-artifact") else { return false }
            if let name = step["with"]?["name"]?.string { return name == artifact }
            if let pattern = step["with"]?["pattern"]?.string { return CIPaths.glob(pattern, matches: artifact) }
            return true
        }
        guard let download else { return nil }
        let folder = download["with"]?["path"]?.string ?? ""
        // One artifact by name, or several merged, lands in the folder itself; else each in a folder of its name.
        let flat = download["with"]?["name"] != nil || download["with"]?["merge-multiple"]?.string == "true"
        return CIPaths.join(folder, flat ? inArtifact : artifact + "/" + inArtifact)
    }

    /// Whether a step's script appends a Markdown report to the run's summary page.
    static func appendsToSummary(_ script: String, _ markdown: String) -> Bool {
        markdown == "$GITHUB_STEP_SUMMARY"
            || Shell.commands(script).contains { command in
                command.words == ["cat", markdown] && command.redirects.contains { $0.op == ">>" && $0.target == "$GITHUB_STEP_SUMMARY" }
            }
    }

    /// What the upload steps after `step` keep whatever came before (if: ${{ !cancelled() }}).
    static func uploadedAfter(_ steps: [YAMLValue], _ step: Int) -> [String] {
        steps.indices.filter { $0 > step && uses(steps[$0], "actions/upload-artifact") && isAlways(steps[$0]["if"]?.string) }
            .flatMap { CIPaths.lines(steps[$0]["with"]?["path"]?.string) }
    }

    static func problems(_ text: String, spec: CommandSpec) throws -> [String] {
        var problems: [String] = []
        let workflow = try YAMLValue.parse(text)
        let on = workflow["on"]
        if on?["schedule"]?.list.compactMap({ $0["cron"]?.string }).isEmpty ?? true { problems.append("no nightly schedule (on: schedule: - cron: …)") }
        if on?["workflow_dispatch"] == nil { problems.append("no workflow_dispatch: the gate cannot be run by hand") }

        var verify: Found?
        var merge: Found?
        var coverage: Found?
        var recordings: [Recording] = []
        for (job, body) in workflow["jobs"]?.pairs ?? [] {
            for (index, step) in (body["steps"]?.list ?? []).enumerated() {
                guard let run = step["run"]?.string else { continue }
                let script = Shell.compactExpressions(run)
                for command in Shell.commands(script) where command.isContract {
                    let invocation = Invocation(command.words, spec: spec)
                    problems += invocation.problems.map { "jobs.\(job) step \(index + 1): \($0)" }
                    let found = Found(job: job, jobBody: body, step: index, script: script, invocation: invocation)
                    if invocation.command == ["contract", "verify"], invocation.value("shard") != nil { verify = found }
                    if invocation.command == ["contract", "merge"] { merge = found }
                    if invocation.command == ["contract", "coverage"] { coverage = found }
                }
                let environment = ((workflow["env"]?.pairs ?? []) + (body["env"]?.pairs ?? []) + (step["env"]?.pairs ?? [])).map {
                    (name: $0.key, value: Shell.compactExpressions($0.value.string ?? ""))
                }
                if let recording = UsageRecording(script: script, environment: environment, inContainer: body["container"] != nil) {
                    recordings.append(Recording(job: job, jobBody: body, step: index, recording: recording))
                }
            }
        }
        guard let verify else { return problems + ["no job runs 'contract verify --shard'"] }

        // The matrix: shards 1 to n, n as in --shard i/n.
        let shardValue = verify.invocation.value("shard") ?? ""
        guard let shard = shardValue.wholeMatch(of: #/\$\{\{matrix\.([A-Za-z0-9_-]+)\}\}/([0-9]+)/#), let total = Int(shard.output.2) else {
            return problems + ["jobs.\(verify.job): --shard must be '${{ matrix.NAME }}/n', found '\(shardValue)'"]
        }
        let matrixKey = String(shard.output.1)
        let strategy = verify.jobBody["strategy"]
        let values = strategy?["matrix"]?[matrixKey]?.list.compactMap(\.string) ?? []
        if values != (1...max(total, 1)).map(String.init) {
            problems.append("jobs.\(verify.job): the matrix '\(matrixKey)' is \(values), but --shard \(shardValue) needs 1 to \(total)")
        }
        if strategy?["fail-fast"]?.string != "false" { problems.append("jobs.\(verify.job): fail-fast must be false, or one shard's drift cancels the others") }

        // Each shard's variables come from somewhere.
        let verifyStep = verify.jobBody["steps"]?.list[verify.step]
        let defined = Set(((verifyStep?["env"]?.pairs ?? []) + (verify.jobBody["env"]?.pairs ?? []) + (workflow["env"]?.pairs ?? [])).map(\.key))
        for name in Shell.variables(verify.invocation.options.compactMap(\.value).joined(separator: " ")) where !defined.contains(name) {
            if !name.hasPrefix("GITHUB_") && !name.hasPrefix("RUNNER_") { problems.append("jobs.\(verify.job): $\(name) is set in no env") }
        }

        // Each shard writes its JSON report and uploads it, whatever its exit code.
        guard let report = verify.invocation.reports["json"] else { return problems + ["jobs.\(verify.job): the shards write no --report json=PATH"] }
        let shards = Array(1...max(total, 1))
        let reportPaths = shards.map { CIPaths.normal(Shell.expand(report, ["matrix.\(matrixKey)": "\($0)"])) }
        if Set(reportPaths).count != shards.count { problems.append("jobs.\(verify.job): every shard writes the same report, \(report)") }
        let verifySteps = verify.jobBody["steps"]?.list ?? []
        guard
            let upload = verifySteps.indices.first(where: { index in
                uses(verifySteps[index], "actions/upload-artifact") && index > verify.step
                    && CIPaths.normal(Shell.expand(verifySteps[index]["with"]?["path"]?.string ?? "", ["matrix.\(matrixKey)": "1"])) == reportPaths[0]
            })
        else { return problems + ["jobs.\(verify.job): no step after the verify uploads its report \(report)"] }
        if !isAlways(verifySteps[upload]["if"]?.string) {
            problems.append("jobs.\(verify.job): the report is uploaded only when the shard passed (add if: ${{ !cancelled() }})")
        }
        let artifactNames = shards.map { Shell.expand(verifySteps[upload]["with"]?["name"]?.string ?? "artifact", ["matrix.\(matrixKey)": "\($0)"]) }
        if Set(artifactNames).count != shards.count { problems.append("jobs.\(verify.job): every shard uploads an artifact of the same name") }

        problems += coverageProblems(
            verify: verify, merge: merge, coverage: coverage, recordings: recordings, reportPaths: reportPaths, artifactNames: artifactNames)

        guard let merge else { return problems + ["no job runs 'contract merge'"] }
        if !(merge.jobBody["needs"]?.strings ?? []).contains(verify.job) { problems.append("jobs.\(merge.job) does not need \(verify.job)") }
        if !isAlways(merge.jobBody["if"]?.string) { problems.append("jobs.\(merge.job) runs only when every shard passed (add if: ${{ !cancelled() }})") }
        if merge.jobBody["continue-on-error"]?.string == "true" { problems.append("jobs.\(merge.job) is the gate: it must not continue on error") }

        // Where download-artifact puts each shard's report, and whether the merge reads it.
        let mergeSteps = merge.jobBody["steps"]?.list ?? []
        var downloaded: [String] = []
        for (shardIndex, artifact) in artifactNames.enumerated() {
            guard let file = Self.downloaded(mergeSteps, before: merge.step, artifact: artifact, file: CIPaths.basename(reportPaths[shardIndex])) else {
                problems.append("jobs.\(merge.job): no step before the merge downloads \(artifact)")
                continue
            }
            downloaded.append(file)
        }
        let read = merge.invocation.positionals.map(CIPaths.normal)
        for (shardIndex, file) in downloaded.enumerated() where !read.contains(where: { CIPaths.glob($0, matches: file) }) {
            problems.append("jobs.\(merge.job): the merge does not read shard \(shardIndex + 1)'s report, downloaded to \(file) (it reads \(read))")
        }
        for pattern in read where !downloaded.contains(where: { CIPaths.glob(pattern, matches: $0) }) {
            problems.append("jobs.\(merge.job): the merge reads \(pattern), which no shard uploads")
        }

        // The merged reports: Markdown on the summary page, the rest uploaded.
        let reports = merge.invocation.reports
        for kind in ["markdown", "html", "json", "junit"] where reports[kind] == nil {
            problems.append("jobs.\(merge.job): the merge writes no \(kind) report")
        }
        if let markdown = reports["markdown"], !appendsToSummary(merge.script, markdown) {
            problems.append("jobs.\(merge.job): the Markdown report \(markdown) is not appended to $GITHUB_STEP_SUMMARY (cat \(markdown) >> \"$GITHUB_STEP_SUMMARY\")")
        }
        let uploaded = uploadedAfter(mergeSteps, merge.step)
        for kind in ["html", "json", "junit"] {
            guard let path = reports[kind] else { continue }
            if !uploaded.contains(where: { CIPaths.covers($0, path) }) {
                problems.append("jobs.\(merge.job): the merged \(kind) report \(path) is not uploaded by a step after the merge with if: ${{ !cancelled() }}")
            }
        }
        return problems
    }

    /// A step that runs the app's tests with CONTRACT_USAGE_DIR.
    struct Recording {
        var job: String
        var jobBody: YAMLValue
        var step: Int
        var recording: UsageRecording
    }

    /// The app's tests record usage beside the shards and upload it whatever their result; the
    /// coverage reads exactly that usage and every shard's report, puts its Markdown on the
    /// summary page, keeps its reports, and gates in a job or step of its own.
    static func coverageProblems(
        verify: Found, merge: Found?, coverage: Found?, recordings: [Recording], reportPaths: [String], artifactNames: [String]
    ) -> [String] {
        var problems: [String] = []
        var usage: (job: String, artifact: String, file: String)?
        for found in recordings {
            let job = "jobs.\(found.job)"
            problems += found.recording.problems.map { "\(job) step \(found.step + 1): \($0)" }
            if (found.jobBody["needs"]?.strings ?? []).contains(verify.job) {
                problems.append("\(job) waits for the shards (needs: \(verify.job)) though the app's tests need nothing of theirs: they run beside them")
            }
            guard let folder = found.recording.folder else { continue }
            // A usage file as a test process names it, usage-<pid>-<random>.jsonl.
            let file = CIPaths.join(folder, "usage-4242-1f.jsonl")
            let steps = found.jobBody["steps"]?.list ?? []
            guard
                let upload = steps.indices.first(where: { index in
                    index > found.step && uses(steps[index], "actions/upload-artifact")
                        && CIPaths.lines(steps[index]["with"]?["path"]?.string).contains { CIPaths.covers($0, file) }
                })
            else {
                problems.append("\(job): no step after the app's tests uploads the usage they write to \(folder)")
                continue
            }
            let with = steps[upload]["with"]
            if !isAlways(steps[upload]["if"]?.string) {
                problems.append("\(job): the usage is uploaded only when every test passed (add if: ${{ !cancelled() }})")
            }
            if with?["if-no-files-found"]?.string != "error" {
                problems.append("\(job): a test run that recorded nothing must fail where it ran (if-no-files-found: error), not leave the coverage without usage")
            }
            if let inArtifact = CIPaths.inArtifact(CIPaths.lines(with?["path"]?.string), file: file) {
                usage = (found.job, with?["name"]?.string ?? "artifact", inArtifact)
            }
        }
        guard let coverage else { return problems + ["no job runs 'contract coverage'"] }
        guard let usage else { return problems + ["no job runs the app's tests with \(UsageRecording.variable) and uploads their usage"] }

        let job = "jobs.\(coverage.job)"
        let steps = coverage.jobBody["steps"]?.list ?? []
        let needs = coverage.jobBody["needs"]?.strings ?? []
        for needed in [verify.job, usage.job] where needed != coverage.job && !needs.contains(needed) {
            problems.append("\(job) does not need \(needed), so it gets none of its artifacts")
        }
        // A gate of its own: the merge's exit code stays the drift gate.
        if let merge, merge.job == coverage.job {
            if merge.step == coverage.step { problems.append("\(job): the coverage runs in the merge's step, one exit code for both gates: give it a step of its own") }
            if !isAlways(steps[coverage.step]["if"]?.string) {
                problems.append("\(job) step \(coverage.step + 1): the coverage runs only when the merge passed (add if: ${{ !cancelled() }})")
            }
        } else if !isAlways(coverage.jobBody["if"]?.string) {
            problems.append("\(job) runs only when every shard and the app's tests passed (add if: ${{ !cancelled() }})")
        }
        if coverage.jobBody["continue-on-error"]?.string == "true" || steps[coverage.step]["continue-on-error"]?.string == "true" {
            problems.append("\(job) is a gate: the coverage must not continue on error")
        }
        if coverage.job != verify.job, !steps.prefix(coverage.step).contains(where: { uses($0, "actions/checkout") }) {
            problems.append("\(job): no checkout before the coverage, so it has no contracts to read")
        }
        problems += CoverageCheck.problems(coverage.invocation, verify: verify.invocation, at: job)

        // The usage it reads is the app's tests' usage, where the download puts it.
        let usageRead = coverage.invocation.values("usage").map(CIPaths.normal)
        if let file = downloaded(steps, before: coverage.step, artifact: usage.artifact, file: usage.file) {
            let folder = CIPaths.parent(file)
            if !usageRead.contains(folder) {
                problems.append("\(job): the coverage reads usage from \(usageRead), but the app's tests' usage (\(usage.artifact)) lands in \(folder)")
            }
            for other in usageRead where other != folder { problems.append("\(job): the coverage reads usage from \(other), which no job uploads") }
        } else {
            problems.append("\(job): no step before the coverage downloads the app's tests' usage (\(usage.artifact))")
        }

        // Every shard's report, and nothing else.
        var landed: [String] = []
        let reportsRead = coverage.invocation.values("verify-report").map(CIPaths.normal)
        for (index, artifact) in artifactNames.enumerated() {
            guard let file = downloaded(steps, before: coverage.step, artifact: artifact, file: CIPaths.basename(reportPaths[index])) else {
                problems.append("\(job): no step before the coverage downloads \(artifact)")
                continue
            }
            landed.append(file)
            if !reportsRead.contains(where: { CIPaths.glob($0, matches: file) }) {
                problems.append("\(job): the coverage does not read shard \(index + 1)'s report, downloaded to \(file) (it reads \(reportsRead))")
            }
        }
        for report in reportsRead where !landed.contains(where: { CIPaths.glob(report, matches: $0) }) {
            problems.append("\(job): the coverage reads \(report), which no shard uploads")
        }

        // Its Markdown on the summary page, its HTML and JSON kept.
        let reports = coverage.invocation.reports
        if let markdown = reports["markdown"], !appendsToSummary(coverage.script, markdown) {
            problems.append("\(job): the coverage's Markdown report \(markdown) is not appended to $GITHUB_STEP_SUMMARY")
        }
        let uploaded = uploadedAfter(steps, coverage.step)
        for kind in ["html", "json"] {
            if let path = reports[kind], !uploaded.contains(where: { CIPaths.covers($0, path) }) {
                problems.append("\(job): the coverage's \(kind) report \(path) is not uploaded by a step after it with if: ${{ !cancelled() }}")
            }
        }
        return problems
    }
}

/// What a coverage step asks for, on either CI.
enum CoverageCheck {
    /// The inputs each gate needs; without them the command exits 2 before reading anything.
    static let inputs = ["used-unverified": ["usage", "verify-report"], "invalid-requests": ["usage"], "uncovered-operations": ["openapi"], "uncovered-responses": ["openapi"]]

    static func problems(_ coverage: Invocation, verify: Invocation, at place: String) -> [String] {
        var problems: [String] = []
        let gates = coverage.values("fail-on")
        if !gates.contains("used-unverified") {
            problems.append("\(place): the coverage does not fail on used-unverified, so a case the app's tests use that the server broke passes")
        }
        for gate in gates {
            for input in inputs[gate] ?? [] where coverage.values(input).isEmpty { problems.append("\(place): --fail-on \(gate) needs --\(input) (without it the coverage exits 2)") }
        }
        let contracts = CIPaths.normal(coverage.positionals.first ?? "contracts")
        let verified = CIPaths.normal(verify.positionals.first ?? "contracts")
        if contracts != verified { problems.append("\(place): the coverage reads the contracts in \(contracts), the shards verify \(verified)") }
        for kind in ["markdown", "html", "json"] where coverage.reports[kind] == nil { problems.append("\(place): the coverage writes no \(kind) report") }
        return problems
    }
}

// MARK: - GitLab CI

enum GitLabCheck {
    static let reserved: Set<String> = ["stages", "variables", "default", "include", "workflow", "image", "services", "cache", "before_script", "after_script", "pages"]

    /// The jobs, with `extends` resolved.
    static func jobs(_ root: YAMLValue) -> [(name: String, body: YAMLValue)] {
        func resolved(_ body: YAMLValue, depth: Int = 0) -> YAMLValue {
            guard let parents = body["extends"]?.strings, depth < 10 else { return body }
            var base = YAMLValue.map([])
            for parent in parents { if let template = root[parent] { base = resolved(template, depth: depth + 1).merged(over: base) } }
            return YAMLValue.map(body.pairs.filter { $0.key != "extends" }).merged(over: base)
        }
        return root.pairs.filter { !reserved.contains($0.key) && !$0.key.hasPrefix(".") }.map { ($0.key, resolved($0.value)) }
    }

    /// A job's script as one shell text, the way a runner runs it: line after line.
    static func script(_ job: YAMLValue, _ key: String = "script") -> String {
        guard let script = job[key] else { return "" }
        return script.string ?? script.list.compactMap(\.string).joined(separator: "\n")
    }

    /// The variables a job's scripts get from the file (the file's and the job's `variables:`).
    static func variables(_ root: YAMLValue, _ body: YAMLValue) -> [(name: String, value: String)] {
        ((root["variables"]?.pairs ?? []) + (body["variables"]?.pairs ?? [])).map { (name: $0.key, value: $0.value.string ?? "") }
    }

    /// A job's stage's place among the stages (GitLab's default stages when the file names none).
    static func stage(_ root: YAMLValue, _ body: YAMLValue) -> Int {
        let stages = root["stages"]?.strings ?? [".pre", "build", "test", "deploy", ".post"]
        return stages.firstIndex(of: body["stage"]?.string ?? "test") ?? -1
    }

    /// Rules that run the job however the jobs before it ended.
    static func runsAlways(_ body: YAMLValue) -> Bool {
        let rules = body["rules"]?.list ?? []
        return body["when"]?.string == "always" || (!rules.isEmpty && rules.allSatisfy { $0["when"]?.string == "always" || $0["when"]?.string == "never" })
    }

    typealias Job = (job: String, body: YAMLValue, invocation: Invocation)

    static func problems(_ text: String, spec: CommandSpec) throws -> [String] {
        var problems: [String] = []
        let root = try YAMLValue.parse(text)
        let jobs = jobs(root)

        var verify: Job?
        var merge: Job?
        var coverage: Job?
        var recordings: [(job: String, body: YAMLValue, recording: UsageRecording)] = []
        for (job, body) in jobs {
            var runsContract = false
            for key in ["before_script", "script", "after_script"] {
                for command in Shell.commands(script(body, key)) where command.isContract {
                    runsContract = true
                    let invocation = Invocation(command.words, spec: spec)
                    problems += invocation.problems.map { "\(job).\(key): \($0)" }
                    if invocation.command == ["contract", "verify"], invocation.value("shard") != nil { verify = (job, body, invocation) }
                    if invocation.command == ["contract", "merge"] { merge = (job, body, invocation) }
                    if invocation.command == ["contract", "coverage"] { coverage = (job, body, invocation) }
                }
            }
            let recording = UsageRecording(script: script(body, "before_script") + "\n" + script(body), environment: variables(root, body))
            if let recording { recordings.append((job, body, recording)) }
            // Every job of the file is nightly, the app's tests too: without the rule they run in every pipeline.
            let rules = body["rules"]?.list ?? root["workflow"]?["rules"]?.list ?? []
            if runsContract || recording != nil, !rules.contains(where: { $0["if"]?.string?.contains(#"$CI_PIPELINE_SOURCE == "schedule""#) ?? false }) {
                problems.append("\(job): no rule runs it in scheduled pipelines ($CI_PIPELINE_SOURCE == \"schedule\")")
            }
        }
        guard let verify else { return problems + ["no job runs 'contract verify --shard'"] }

        // parallel: n, and --shard $CI_NODE_INDEX/$CI_NODE_TOTAL (or /n).
        let parallel = Int(verify.body["parallel"]?.string ?? "") ?? 0
        let shardValue = (verify.invocation.value("shard") ?? "").replacing(#/\$\{([A-Za-z_]+)\}/#) { "$" + $0.output.1 }
        if parallel < 2 { problems.append("\(verify.job): parallel must be the number of shards, found \(verify.body["parallel"]?.string ?? "none")") }
        if shardValue != "$CI_NODE_INDEX/$CI_NODE_TOTAL" && shardValue != "$CI_NODE_INDEX/\(parallel)" {
            problems.append("\(verify.job): --shard must be $CI_NODE_INDEX/$CI_NODE_TOTAL (parallel: \(parallel)), found '\(shardValue)'")
        }
        // The merge decides; a shard with invalid contracts fails the pipeline by itself.
        let allowFailure = verify.body["allow_failure"]
        if allowFailure?.string == "true" || (allowFailure?["exit_codes"]?.strings ?? []).contains("2") {
            problems.append("\(verify.job): a shard that exits 2 (invalid contracts, arguments or baseline) must fail the pipeline")
        }

        guard let report = verify.invocation.reports["json"] else { return problems + ["\(verify.job): the shards write no --report json=PATH"] }
        let shards = Array(1...max(parallel, 1))
        let reportPaths = shards.map { CIPaths.normal(Shell.expand(report, ["CI_NODE_INDEX": "\($0)", "CI_NODE_TOTAL": "\(parallel)"])) }
        if Set(reportPaths).count != shards.count { problems.append("\(verify.job): every shard writes the same report, \(report)") }
        let artifacts = verify.body["artifacts"]
        if artifacts?["when"]?.string != "always" { problems.append("\(verify.job): artifacts are kept only when the shard passed (artifacts: when: always)") }
        let artifactPaths = artifacts?["paths"]?.strings ?? []
        for path in reportPaths where !artifactPaths.contains(where: { CIPaths.covers($0, path) }) {
            problems.append("\(verify.job): the report \(path) is in none of its artifacts: paths \(artifactPaths)")
        }

        problems += coverageProblems(root, verify: verify, coverage: coverage, recordings: recordings, reportPaths: reportPaths)

        guard let merge else { return problems + ["no job runs 'contract merge'"] }
        let needs = merge.body["needs"]?.strings
        if let needs, !needs.contains(verify.job) { problems.append("\(merge.job): needs does not list \(verify.job), so it gets none of its reports") }
        if needs == nil, stage(root, merge.body) <= stage(root, verify.body) { problems.append("\(merge.job) runs in no stage after \(verify.job)") }
        if !runsAlways(merge.body) { problems.append("\(merge.job): runs only when every shard passed (when: always, in its rules)") }

        let read = merge.invocation.positionals.map(CIPaths.normal)
        for (index, file) in reportPaths.enumerated() where !read.contains(where: { CIPaths.glob($0, matches: file) }) {
            problems.append("\(merge.job): the merge does not read shard \(index + 1)'s report \(file) (it reads \(read))")
        }
        for pattern in read where !reportPaths.contains(where: { CIPaths.glob(pattern, matches: $0) }) {
            problems.append("\(merge.job): the merge reads \(pattern), which no shard writes")
        }

        let reports = merge.invocation.reports
        for kind in ["markdown", "html", "json", "junit"] where reports[kind] == nil {
            problems.append("\(merge.job): the merge writes no \(kind) report")
        }
        let mergeArtifacts = merge.body["artifacts"]
        if mergeArtifacts?["when"]?.string != "always" { problems.append("\(merge.job): the reports are kept only when the run passed (artifacts: when: always)") }
        let kept = mergeArtifacts?["paths"]?.strings ?? []
        for kind in ["html", "json"] {
            if let path = reports[kind], !kept.contains(where: { CIPaths.covers($0, path) }) {
                problems.append("\(merge.job): the merged \(kind) report \(path) is in none of its artifacts: paths \(kept)")
            }
        }
        if let junit = reports["junit"], CIPaths.normal(mergeArtifacts?["reports"]?["junit"]?.string ?? "") != CIPaths.normal(junit) {
            problems.append("\(merge.job): artifacts: reports: junit is not the merged JUnit report \(junit)")
        }
        return problems
    }

    /// The app's tests record usage beside the shards and keep it whatever their result; the
    /// coverage job reads exactly that usage and every shard's report (artifacts come back at the
    /// paths they were kept from), keeps its reports, and gates in a job of its own.
    static func coverageProblems(
        _ root: YAMLValue, verify: Job, coverage: Job?, recordings: [(job: String, body: YAMLValue, recording: UsageRecording)], reportPaths: [String]
    ) -> [String] {
        var problems: [String] = []
        var usage: (job: String, body: YAMLValue, folder: String)?
        for (job, body, recording) in recordings {
            problems += recording.problems.map { "\(job): \($0)" }
            if let needs = body["needs"]?.strings {
                if needs.contains(verify.job) { problems.append("\(job) waits for the shards (needs: \(verify.job)) though the app's tests need nothing of theirs: they run beside them") }
            } else if stage(root, body) > stage(root, verify.body) {
                problems.append("\(job) runs in a stage after \(verify.job) though the app's tests need nothing of its: they run beside the shards")
            }
            guard let folder = recording.folder else { continue }
            let file = CIPaths.join(folder, "usage-4242-1f.jsonl")
            let artifacts = body["artifacts"]
            let kept = artifacts?["paths"]?.strings ?? []
            guard kept.contains(where: { CIPaths.covers($0, file) }) else {
                problems.append("\(job): the usage the app's tests write to \(folder) is in none of its artifacts: paths \(kept)")
                continue
            }
            if artifacts?["when"]?.string != "always" { problems.append("\(job): the usage is kept only when every test passed (artifacts: when: always)") }
            usage = (job, body, folder)
        }
        guard let coverage else { return problems + ["no job runs 'contract coverage'"] }
        guard let usage else { return problems + ["no job runs the app's tests with \(UsageRecording.variable) and keeps their usage"] }

        let job = coverage.job
        let needs = coverage.body["needs"]?.strings
        for needed in [(verify.job, verify.body), (usage.job, usage.body)] {
            if let needs, !needs.contains(needed.0) { problems.append("\(job): needs does not list \(needed.0), so it gets none of its artifacts") }
            if needs == nil, stage(root, coverage.body) <= stage(root, needed.1) { problems.append("\(job) runs in no stage after \(needed.0)") }
        }
        if !runsAlways(coverage.body) { problems.append("\(job): runs only when every shard and the app's tests passed (when: always, in its rules)") }
        // A gate of its own: contract-merge's exit code stays the drift gate.
        let allowFailure = coverage.body["allow_failure"]
        if allowFailure?.string == "true" || (allowFailure?["exit_codes"]?.strings ?? []).contains("1") {
            problems.append("\(job) is a gate: a case the app's tests use that the server broke (exit 1) must fail the pipeline")
        }
        problems += CoverageCheck.problems(coverage.invocation, verify: verify.invocation, at: job)

        let usageRead = coverage.invocation.values("usage").map(CIPaths.normal)
        if !usageRead.contains(usage.folder) {
            problems.append("\(job): the coverage reads usage from \(usageRead), but the app's tests keep theirs in \(usage.folder)")
        }
        for other in usageRead where other != usage.folder { problems.append("\(job): the coverage reads usage from \(other), which no job keeps") }

        let reportsRead = coverage.invocation.values("verify-report").map(CIPaths.normal)
        for (index, file) in reportPaths.enumerated() where !reportsRead.contains(where: { CIPaths.glob($0, matches: file) }) {
            problems.append("\(job): the coverage does not read shard \(index + 1)'s report \(file) (it reads \(reportsRead))")
        }
        for report in reportsRead where !reportPaths.contains(where: { CIPaths.glob(report, matches: $0) }) {
            problems.append("\(job): the coverage reads \(report), which no shard writes")
        }

        let artifacts = coverage.body["artifacts"]
        if artifacts?["when"]?.string != "always" { problems.append("\(job): the coverage's reports are kept only when its gate passed (artifacts: when: always)") }
        let kept = artifacts?["paths"]?.strings ?? []
        for (kind, path) in coverage.invocation.reports.sorted(by: { $0.key < $1.key }) where !kept.contains(where: { CIPaths.covers($0, path) }) {
            problems.append("\(job): the coverage's \(kind) report \(path) is in none of its artifacts: paths \(kept)")
        }
        return problems
    }
}

// MARK: - Running the scripts

/// The scripts of a CI file, run by bash in a folder per job, with the built `contract` first on
/// PATH (the build and install steps are what CI does instead), in the order the jobs' needs allow
/// (the shards, the app's tests, the merge, the coverage), each job's artifacts passed on as the CI
/// passes them.
///
/// The app's tests are not run: building examples/MarketClient with its dependencies takes
/// minutes. The unit-test job's own lines run as written (the variable they set, the upload), and
/// where they run `swift test`, a stand-in `swift` first on PATH does what the app's test process
/// does with `CONTRACT_USAGE_DIR`, the way UsageRecorder does it: in the package's folder, the
/// usage folder made if missing, a new file in it (`usage-<pid>-<random>.jsonl`, never one that
/// is there), the format's header line, then one line per request, as UsageLog writes them:
/// `appUsage`. With no variable set, it writes nothing, as the recorder does.
enum CISimulation {
    struct Night: Sendable {
        var folder: URL
        var baseURL: String
        var baseline: URL
        var skippedShard: Int?
    }

    struct Outcome: Sendable {
        var shardCodes: [Int32] = []
        var mergeCode: Int32 = -1
        /// The app's tests' job: 0, or the code of its first step that failed (the upload's too).
        var appTestsCode: Int32 = -1
        /// The coverage step's exit code; -1 when it did not run.
        var coverageCode: Int32 = -1
        /// Whether the CI has a step summary page (GitHub's $GITHUB_STEP_SUMMARY), and what the
        /// merge and the coverage jobs put on it.
        var hasStepSummary = false
        var summary: String?
        var coverageSummary: String?
        var mergedJSON: URL?
        var coverageJSON: URL?
        /// Reports the merge or the coverage should have written and kept, but did not.
        var missingArtifacts: [String] = []
        var log = ""
    }

    static let contracts = ExampleAPITests.packageRoot.appendingPathComponent("contracts")

    /// What the example app's tests (examples/MarketClient) record, one line per request as
    /// UsageLog writes it: products.get/found, which the drifting example API breaks (created_at
    /// for createdAt, the price as a string), from two tests, and products.get/missing, which it
    /// keeps.
    static let appUsage = [
        #"{"case":"found","contract":"products.get","method":"GET","outcome":"answered","path":"/api/products/1","test":"MarketClientTests.MarketClientTests/fetchesAProduct()"}"#,
        #"{"case":"found","contract":"products.get","method":"GET","outcome":"answered","path":"/api/products/1","test":"MarketClientTests.MarketClientOverHTTPTests/fetchesAProduct()"}"#,
        #"{"case":"missing","contract":"products.get","method":"GET","outcome":"answered","path":"/api/products/1","test":"MarketClientTests.MarketClientTests/aMissingProductIsNotFound()"}"#,
    ]

    /// The stand-in for `swift test` of the example app: the usage its test process would write,
    /// and no tests.
    static let appTestProcess = """
        #!/bin/bash
        # Stands in for `swift test` of the example app (ExampleCITests' CISimulation): it writes the
        # usage the app's test process would, the way UsageRecorder writes it, and runs no tests.
        set -eu
        if [ "${1:-}" != test ]; then echo "the simulation's swift runs 'swift test' only, found 'swift $*'" >&2; exit 97; fi
        shift
        while [ $# -gt 0 ]; do
            case "$1" in
                # SwiftPM works in the package's folder, where a relative CONTRACT_USAGE_DIR lands. (The
                # simulation's checkout has the contracts only, so the folder is made.)
                --package-path) mkdir -p "$2"; cd "$2"; shift 2 ;;
                *) shift ;;
            esac
        done
        # Recording is off without the variable.
        [ -n "${CONTRACT_USAGE_DIR:-}" ] || exit 0
        # The folder made if missing (one level, as mkdir), then a new file, never one that is there.
        if ! { mkdir "$CONTRACT_USAGE_DIR" 2>/dev/null || [ -d "$CONTRACT_USAGE_DIR" ]; }; then
            echo "ContractTesting: cannot record usage in '$CONTRACT_USAGE_DIR' (CONTRACT_USAGE_DIR)" >&2
            exit 0
        fi
        set -o noclobber
        file="$CONTRACT_USAGE_DIR/usage-$$-$(printf '%04x%04x' "$RANDOM" "$RANDOM").jsonl"
        {
            printf '{"format":"contract-usage","process":%d,"recorder":"ContractTesting","version":1}\\n' "$$"
            cat "$SIMULATED_APP_USAGE"
        } > "$file"

        """

    static func environment(_ night: Night, _ extra: [String: String]) throws -> [String: String] {
        let bin = night.folder.appendingPathComponent("bin")
        let usage = night.folder.appendingPathComponent("app-usage.jsonl")
        if !FileManager.default.fileExists(atPath: bin.path) {
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("contract").path, withDestinationPath: ContractBinary.url.path)
            let swift = bin.appendingPathComponent("swift")
            try Data(appTestProcess.utf8).write(to: swift)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
            try Data(appUsage.map { $0 + "\n" }.joined().utf8).write(to: usage)
        }
        var environment = ProcessInfo.processInfo.environment
        // Only what the CI file sets reaches the scripts (and the usage folder only through them).
        for name in ["MARKET_TOKEN", "STAGING_URL", "NO_COLOR", UsageRecording.variable, UsageRecording.xcodebuildVariable] { environment[name] = nil }
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["CI"] = "true"
        environment["SIMULATED_APP_USAGE"] = usage.path
        return environment.merging(extra) { $1 }
    }

    /// A job's folder: a checkout with the contracts and the baseline where the shard reads it.
    static func checkout(_ night: Night, _ name: String, baselinePath: String?) throws -> URL {
        let folder = night.folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: contracts, to: folder.appendingPathComponent("contracts"))
        if let baselinePath {
            let target = folder.appendingPathComponent(baselinePath)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: night.baseline, to: target)
        }
        return folder
    }

    static func bash(_ script: String, in folder: URL, _ environment: [String: String], log: inout String) throws -> Int32 {
        let (status, out, err) = try ChildProcess.run("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        log += "$ \(script)\n\(String(decoding: out, as: UTF8.self))\(String(decoding: err, as: UTF8.self))-> \(status)\n"
        return status
    }

    static func copy(_ source: URL, to target: URL) throws {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
            for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
                try copy(source.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
        } else {
            try FileManager.default.copyItem(at: source, to: target)
        }
    }

    /// The files at a path of a job's folder (a file, or every file under a folder), each with its
    /// path from the job's folder.
    static func files(at path: String, in folder: URL) -> [(url: URL, path: String)] {
        let url = folder.appendingPathComponent(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [(url, CIPaths.normal(path))] }
        let inside = (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? []).sorted()
        return inside.compactMap { name in
            var isInnerFolder: ObjCBool = false
            let file = url.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isInnerFolder), !isInnerFolder.boolValue else { return nil }
            return (file, CIPaths.join(path.hasSuffix("/") ? String(path.dropLast()) : path, name))
        }
    }

    static func baselinePath(_ script: String) -> String? {
        for command in Shell.commands(script) where command.isContract {
            if let index = command.words.firstIndex(of: "--baseline"), index + 1 < command.words.count { return command.words[index + 1] }
        }
        return nil
    }

    static func runsContract(_ script: String) -> Bool { Shell.commands(Shell.compactExpressions(script)).contains(where: \.isContract) }

    /// `${{ X }}` in a GitHub text, from the values given; an expression the test does not know fails it.
    static func evaluate(_ text: String, _ values: [String: String]) throws -> String {
        let expanded = Shell.compactExpressions(text).replacing(#/\$\{\{([^}]*)\}\}/#) { match in values[String(match.output.1)] ?? "UNKNOWN(\(match.output.1))" }
        if let unknown = expanded.firstMatch(of: #/UNKNOWN\(([^)]*)\)/#) { throw CIExampleError("the test gives no value for ${{ \(unknown.output.1) }}") }
        return expanded
    }

    /// The reports a `contract COMMAND` in these scripts writes (`--report KIND=PATH`), by kind,
    /// with whether each is there.
    static func reports(_ scripts: [String], command name: String, in folder: URL) -> [String: (path: String, url: URL, exists: Bool)] {
        var reports: [String: (path: String, url: URL, exists: Bool)] = [:]
        for script in scripts {
            for command in Shell.commands(Shell.compactExpressions(script)) where command.isContract && command.words.dropFirst().first == name {
                for (index, word) in command.words.enumerated() where word == "--report" && index + 1 < command.words.count {
                    let value = command.words[index + 1]
                    guard let equals = value.firstIndex(of: "=") else { continue }
                    let path = String(value[value.index(after: equals)...])
                    let file = folder.appendingPathComponent(path)
                    reports[String(value[..<equals])] = (path, file, FileManager.default.fileExists(atPath: file.path))
                }
            }
        }
        return reports
    }

    /// What the coverage run left: its JSON report, and the reports it was asked for and did not write.
    static func coverageReports(_ scripts: [String], in folder: URL, ran: Bool, into outcome: inout Outcome) {
        let written = reports(scripts, command: "coverage", in: folder)
        outcome.coverageJSON = written["json"].flatMap { $0.exists ? $0.url : nil }
        guard ran else { return }
        for report in written.values.sorted(by: { $0.path < $1.path }) where !report.exists && !outcome.missingArtifacts.contains(report.path) {
            outcome.missingArtifacts.append(report.path)
        }
    }

    static func gitHub(_ text: String, _ night: Night) throws -> Outcome {
        var outcome = Outcome()
        outcome.hasStepSummary = true
        let workflow = try YAMLValue.parse(text)
        let jobs = workflow["jobs"]?.pairs ?? []
        let environmentOf = { (body: YAMLValue, step: YAMLValue) in (workflow["env"]?.pairs ?? []) + (body["env"]?.pairs ?? []) + (step["env"]?.pairs ?? []) }
        let recordsUsage = { (body: YAMLValue, step: YAMLValue) -> Bool in
            guard let run = step["run"]?.string else { return false }
            let environment = environmentOf(body, step).map { (name: $0.key, value: Shell.compactExpressions($0.value.string ?? "")) }
            return UsageRecording(script: Shell.compactExpressions(run), environment: environment) != nil
        }
        let runs = { (body: YAMLValue, command: String) in
            body["steps"]?.list.contains { ($0["run"]?.string ?? "").contains("contract \(command)") } ?? false
        }
        guard let verify = jobs.first(where: { runs($0.value, "verify") }), let merge = jobs.first(where: { runs($0.value, "merge") }),
            let coverage = jobs.first(where: { runs($0.value, "coverage") }),
            let appTests = jobs.first(where: { job in job.value["steps"]?.list.contains { recordsUsage(job.value, $0) } ?? false })
        else {
            throw CIExampleError("no verify, merge, coverage job, or no job that runs the app's tests with \(UsageRecording.variable)")
        }
        var values = ["vars.STAGING_URL": night.baseURL, "secrets.MARKET_TOKEN": "example-token"]
        let artifacts = night.folder.appendingPathComponent("artifacts")

        // The jobs not run here (the build) leave their artifacts as placeholders: the contract
        // they would hand on is on PATH already.
        for (name, body) in jobs where ![verify.key, merge.key, coverage.key, appTests.key].contains(name) {
            for step in body["steps"]?.list ?? [] where GitHubCheck.uses(step, "actions/upload-artifact") {
                let artifact = artifacts.appendingPathComponent(try evaluate(step["with"]?["name"]?.string ?? "artifact", values))
                try FileManager.default.createDirectory(at: artifact, withIntermediateDirectories: true)
                for path in CIPaths.lines(step["with"]?["path"]?.string) {
                    try Data("the simulation runs the contract it built\n".utf8).write(to: artifact.appendingPathComponent(CIPaths.basename(path)))
                }
            }
        }

        struct JobRun {
            /// The exit code of the job's last script run (a contract command or the app's tests).
            var code: Int32?
            /// The code of its first step that failed.
            var failed: Int32?
        }

        /// A job's steps: `run` steps that call contract or run the app's tests, upload-artifact
        /// and download-artifact, each with its `if` (a step without one runs only while the job
        /// has not failed). `keepsReports`: an upload of a path that is not there is a missing report.
        func run(_ job: String, _ body: YAMLValue, in folder: URL, _ values: [String: String], keepsReports: Bool = false) throws -> JobRun {
            var result = JobRun()
            for step in body["steps"]?.list ?? [] {
                if result.failed != nil && !GitHubCheck.isAlways(step["if"]?.string) { continue }
                let with = step["with"]
                if let script = step["run"]?.string, runsContract(script) || recordsUsage(body, step) {
                    // A step summary file per job, as the run's page shows them.
                    let summary = night.folder.appendingPathComponent("step-summary-\(job).md")
                    var extra = ["GITHUB_STEP_SUMMARY": summary.path, "GITHUB_OUTPUT": night.folder.appendingPathComponent("output").path, "GITHUB_WORKSPACE": folder.path]
                    for (name, value) in environmentOf(body, step) { extra[name] = try evaluate(value.string ?? "", values) }
                    let code = try bash(try evaluate(script, values), in: folder, try environment(night, extra), log: &outcome.log)
                    result.code = code
                    if code != 0 { result.failed = result.failed ?? code }
                } else if GitHubCheck.uses(step, "actions/upload-artifact") {
                    let name = try evaluate(with?["name"]?.string ?? "artifact", values)
                    let paths = try CIPaths.lines(with?["path"]?.string).map { try evaluate($0, values) }
                    var found: [(url: URL, path: String)] = []
                    for path in paths {
                        let here = files(at: path, in: folder)
                        if here.isEmpty && keepsReports { outcome.missingArtifacts.append(path) }
                        found += here
                    }
                    guard !found.isEmpty else {
                        // upload-artifact makes no artifact of no files, and with if-no-files-found: error fails the step.
                        outcome.log += "upload-artifact \(name): no files at \(paths)\n"
                        if with?["if-no-files-found"]?.string == "error" { result.failed = result.failed ?? 1 }
                        continue
                    }
                    for file in found {
                        guard let inside = CIPaths.inArtifact(paths, file: file.path) else { continue }
                        try copy(file.url, to: artifacts.appendingPathComponent(name).appendingPathComponent(inside))
                    }
                } else if GitHubCheck.uses(step, "actions/download-artifact") {
                    let stored = (try? FileManager.default.contentsOfDirectory(atPath: artifacts.path)) ?? []
                    if let wanted = with?["name"]?.string, !stored.contains(wanted) {
                        // download-artifact fails on an artifact by name that the run does not have.
                        outcome.log += "download-artifact: no artifact \(wanted)\n"
                        result.failed = result.failed ?? 1
                        continue
                    }
                    let target = folder.appendingPathComponent(with?["path"]?.string ?? ".")
                    let flat = with?["name"] != nil || with?["merge-multiple"]?.string == "true"
                    for name in stored.sorted() {
                        if let wanted = with?["name"]?.string, wanted != name { continue }
                        if let pattern = with?["pattern"]?.string, !CIPaths.glob(pattern, matches: name) { continue }
                        for file in try FileManager.default.contentsOfDirectory(atPath: artifacts.appendingPathComponent(name).path) {
                            let destination = flat ? target.appendingPathComponent(file) : target.appendingPathComponent(name).appendingPathComponent(file)
                            try copy(artifacts.appendingPathComponent(name).appendingPathComponent(file), to: destination)
                        }
                    }
                }
            }
            return result
        }

        /// A job's folder: a checkout (the contracts, the baseline) when it checks out.
        func folder(_ name: String, _ body: YAMLValue) throws -> URL {
            let steps = body["steps"]?.list ?? []
            guard steps.contains(where: { GitHubCheck.uses($0, "actions/checkout") }) else {
                let folder = night.folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return folder
            }
            return try checkout(night, name, baselinePath: steps.compactMap { $0["run"]?.string }.compactMap(baselinePath).first)
        }

        let matrix = verify.value["strategy"]?["matrix"]?.pairs.first
        let shards = matrix?.value.list.compactMap(\.string) ?? []
        for shard in shards {
            if let skipped = night.skippedShard, shard == "\(skipped)" { continue }
            values["matrix.\(matrix?.key ?? "")"] = shard
            let run = try run(verify.key, verify.value, in: try folder("verify-\(shard)", verify.value), values)
            outcome.shardCodes.append(run.code ?? -1)
        }
        let appTestsRun = try run(appTests.key, appTests.value, in: try folder(appTests.key, appTests.value), values)
        outcome.appTestsCode = appTestsRun.failed ?? appTestsRun.code ?? -1

        let mergeFolder = try folder(merge.key, merge.value)
        outcome.mergeCode = try run(merge.key, merge.value, in: mergeFolder, values, keepsReports: true).code ?? -1
        outcome.summary = try? String(contentsOf: night.folder.appendingPathComponent("step-summary-\(merge.key).md"), encoding: .utf8)
        outcome.mergedJSON = mergedJSON(merge.value["steps"]?.list.compactMap { $0["run"]?.string } ?? [], in: mergeFolder)

        let coverageFolder = try folder(coverage.key, coverage.value)
        outcome.coverageCode = try run(coverage.key, coverage.value, in: coverageFolder, values, keepsReports: true).code ?? -1
        outcome.coverageSummary = try? String(contentsOf: night.folder.appendingPathComponent("step-summary-\(coverage.key).md"), encoding: .utf8)
        coverageReports(coverage.value["steps"]?.list.compactMap { $0["run"]?.string } ?? [], in: coverageFolder, ran: outcome.coverageCode >= 0, into: &outcome)
        return outcome
    }

    static func mergedJSON(_ scripts: [String], in folder: URL) -> URL? {
        reports(scripts, command: "merge", in: folder)["json"].flatMap { $0.exists ? $0.url : nil }
    }

    static func gitLab(_ text: String, _ night: Night) throws -> Outcome {
        var outcome = Outcome()
        let root = try YAMLValue.parse(text)
        let jobs = GitLabCheck.jobs(root)
        let runs = { (body: YAMLValue, command: String) in GitLabCheck.script(body).contains("contract \(command)") }
        let recordsUsage = { (body: YAMLValue) in UsageRecording(script: GitLabCheck.script(body), environment: GitLabCheck.variables(root, body)) != nil }
        guard let verify = jobs.first(where: { runs($0.body, "verify") }), let merge = jobs.first(where: { runs($0.body, "merge") }),
            let coverage = jobs.first(where: { runs($0.body, "coverage") }), let appTests = jobs.first(where: { recordsUsage($0.body) })
        else {
            throw CIExampleError("no verify, merge, coverage job, or no job that runs the app's tests with \(UsageRecording.variable)")
        }
        let settings = ["STAGING_URL": night.baseURL, "MARKET_TOKEN": "example-token", "CI_PIPELINE_SOURCE": "schedule", "GITLAB_CI": "true"]
        let variables = { (body: YAMLValue) in
            GitLabCheck.variables(root, body).reduce(into: [String: String]()) { $0[$1.name] = $1.value }.merging(settings) { $1 }
        }

        /// The runs of each job whose artifacts were kept (when: always, or on success): the
        /// folder and the paths, restored at the same paths in the jobs that need it.
        var kept: [String: [(folder: URL, paths: [String])]] = [:]
        func keep(_ job: (name: String, body: YAMLValue), in folder: URL, code: Int32, _ values: [String: String]) {
            guard code == 0 || job.body["artifacts"]?["when"]?.string == "always" else { return }
            kept[job.name, default: []].append((folder, (job.body["artifacts"]?["paths"]?.strings ?? []).map { Shell.expand($0, values) }))
        }
        /// A job's folder: the repository's checkout, then the artifacts of the jobs it needs
        /// (without needs, of every job before it).
        func prepare(_ job: (name: String, body: YAMLValue), folder name: String, baseline: String?) throws -> URL {
            let folder = try checkout(night, name, baselinePath: baseline)
            for needed in job.body["needs"]?.strings ?? Array(kept.keys) {
                for (source, paths) in kept[needed] ?? [] {
                    for path in paths where FileManager.default.fileExists(atPath: source.appendingPathComponent(path).path) {
                        try copy(source.appendingPathComponent(path), to: folder.appendingPathComponent(path))
                    }
                }
            }
            return folder
        }

        let parallel = Int(verify.body["parallel"]?.string ?? "") ?? 1
        let script = GitLabCheck.script(verify.body)
        for shard in 1...parallel where shard != night.skippedShard {
            let folder = try prepare(verify, folder: "verify-\(shard)", baseline: baselinePath(script))
            let extra = variables(verify.body).merging(["CI_NODE_INDEX": "\(shard)", "CI_NODE_TOTAL": "\(parallel)"]) { $1 }
            let code = try bash(script, in: folder, try environment(night, extra), log: &outcome.log)
            outcome.shardCodes.append(code)
            keep(verify, in: folder, code: code, extra)
        }

        let appTestsFolder = try prepare(appTests, folder: appTests.name, baseline: nil)
        outcome.appTestsCode = try bash(GitLabCheck.script(appTests.body), in: appTestsFolder, try environment(night, variables(appTests.body)), log: &outcome.log)
        keep(appTests, in: appTestsFolder, code: outcome.appTestsCode, variables(appTests.body))

        let mergeFolder = try prepare(merge, folder: merge.name, baseline: nil)
        outcome.mergeCode = try bash(GitLabCheck.script(merge.body), in: mergeFolder, try environment(night, variables(merge.body)), log: &outcome.log)
        let artifacts = merge.body["artifacts"]
        for path in (artifacts?["paths"]?.strings ?? []) + [artifacts?["reports"]?["junit"]?.string].compactMap({ $0 }) {
            if !FileManager.default.fileExists(atPath: mergeFolder.appendingPathComponent(path).path) { outcome.missingArtifacts.append(path) }
        }
        outcome.mergedJSON = mergedJSON([GitLabCheck.script(merge.body)], in: mergeFolder)

        let coverageFolder = try prepare(coverage, folder: coverage.name, baseline: nil)
        outcome.coverageCode = try bash(GitLabCheck.script(coverage.body), in: coverageFolder, try environment(night, variables(coverage.body)), log: &outcome.log)
        for path in coverage.body["artifacts"]?["paths"]?.strings ?? [] where files(at: path, in: coverageFolder).isEmpty {
            outcome.missingArtifacts.append(path)
        }
        coverageReports([GitLabCheck.script(coverage.body)], in: coverageFolder, ran: true, into: &outcome)
        return outcome
    }
}
