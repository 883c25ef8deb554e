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
/// HTML, JSON and JUnit are artifacts. Last, both files' scripts run as their CI would run them,
/// against the example API: new drift fails the gate, the baseline updated from the merged
/// report makes it pass, a missing shard fails it.
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

    /// Three nights against the drifting example API: with an empty baseline the gate is red (1);
    /// with the baseline `contract baseline` wrote from the merged JSON report it is green (0);
    /// with a shard missing it is red (2).
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
        if let summary = first.summary {
            #expect(summary.contains("products.create/created"), "the step summary has the merged Markdown: \(summary.prefix(500))")
        }

        // The baseline updated from the merged run, as the comments and the README say.
        let mergedJSON = try #require(first.mergedJSON, "the merge writes a JSON report\n\(first.log)")
        let updated = try await ContractBinary.run(["baseline", mergedJSON.path, "--out", baseline.path, "--reason", "known"], in: folder)
        #expect(updated.exitCode == 0, "\(updated.stderr)")

        let second = try await onOwnThread { try simulate(.init(folder: folder.appendingPathComponent("second"), baseURL: server.baseURL, baseline: baseline)) }
        #expect(second.mergeCode == 0, "known drift passes the gate:\n\(second.log)")
        #expect(second.missingArtifacts.isEmpty, "\(second.missingArtifacts)\n\(second.log)")

        let third = try await onOwnThread {
            try simulate(.init(folder: folder.appendingPathComponent("third"), baseURL: server.baseURL, baseline: baseline, skippedShard: 2))
        }
        #expect(third.shardCodes.count == 3)
        #expect(third.mergeCode == 2, "a missing shard fails the gate:\n\(third.log)")
        #expect(third.log.contains("shard 2"), "the merge names the missing shard:\n\(third.log)")
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
                abstract: argument["abstract"] as? String ?? "")
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
            var value = inline
            if value == nil, index < words.count, !words[index].hasPrefix("-") {
                value = words[index]
                index += 1
            }
            guard let value else {
                problems.append("'\(name)': \(flag) needs a value")
                continue
            }
            options.append((key, value))
            if !argument.allValues.isEmpty, !value.contains("$"), !argument.allValues.contains(value) {
                problems.append("'\(name)': \(flag) takes \(argument.allValues.joined(separator: ", ")), found '\(value)'")
            }
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

    /// `contract …` or `path/to/contract …`.
    var isContract: Bool { words.first.map { $0 == "contract" || $0.hasSuffix("/contract") } ?? false }
}

/// Enough of the shell to find the commands of a CI script: continuations joined, comments
/// dropped, quotes removed, `$VARIABLES` left as written; split at newlines, `;`, `&&`, `||`
/// and `|`; redirections apart; leading keywords (`if`, `then`…) and assignments dropped.
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
            while let first = words.first, keywords.contains(first) || first.wholeMatch(of: #/[A-Za-z_][A-Za-z0-9_]*=.*/#) != nil {
                words.removeFirst()
            }
            if !words.isEmpty || !redirects.isEmpty { commands.append(ShellCommand(words: words, redirects: redirects)) }
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
            guard trimmed.hasPrefix("#"), let start = trimmed.firstMatch(of: #/contract (verify|merge|baseline|lint|fixtures|import)\b/#) else { return nil }
            return String(trimmed[start.range.lowerBound...])
        }
    }

    /// Lines of fenced code blocks, and inline code spans (which may wrap), that start with `contract `.
    static func commandLines(markdown text: String) -> [String] {
        var lines: [String] = []
        var prose = ""
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
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

    static func problems(_ text: String, spec: CommandSpec) throws -> [String] {
        var problems: [String] = []
        let workflow = try YAMLValue.parse(text)
        let on = workflow["on"]
        if on?["schedule"]?.list.compactMap({ $0["cron"]?.string }).isEmpty ?? true { problems.append("no nightly schedule (on: schedule: - cron: …)") }
        if on?["workflow_dispatch"] == nil { problems.append("no workflow_dispatch: the gate cannot be run by hand") }

        var verify: Found?
        var merge: Found?
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

        guard let merge else { return problems + ["no job runs 'contract merge'"] }
        if !(merge.jobBody["needs"]?.strings ?? []).contains(verify.job) { problems.append("jobs.\(merge.job) does not need \(verify.job)") }
        if !isAlways(merge.jobBody["if"]?.string) { problems.append("jobs.\(merge.job) runs only when every shard passed (add if: ${{ !cancelled() }})") }
        if merge.jobBody["continue-on-error"]?.string == "true" { problems.append("jobs.\(merge.job) is the gate: it must not continue on error") }

        // Where download-artifact puts each shard's report, and whether the merge reads it.
        let mergeSteps = merge.jobBody["steps"]?.list ?? []
        var downloaded: [String] = []
        for (shardIndex, artifact) in artifactNames.enumerated() {
            let step = mergeSteps.prefix(merge.step).first { step in
                guard uses(step, "actions/download-artifact") else { return false }
                if let name = step["with"]?["name"]?.string { return name == artifact }
                if let pattern = step["with"]?["pattern"]?.string { return CIPaths.glob(pattern, matches: artifact) }
                return true
            }
            guard let step else {
                problems.append("jobs.\(merge.job): no step before the merge downloads \(artifact)")
                continue
            }
            let folder = step["with"]?["path"]?.string ?? ""
            let flat = step["with"]?["name"] != nil || step["with"]?["merge-multiple"]?.string == "true"
            let file = CIPaths.basename(reportPaths[shardIndex])
            downloaded.append(CIPaths.join(folder, flat ? file : artifact + "/" + file))
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
        if let markdown = reports["markdown"] {
            let appended = Shell.commands(merge.script).contains { command in
                command.words == ["cat", markdown] && command.redirects.contains { $0.op == ">>" && $0.target == "$GITHUB_STEP_SUMMARY" }
            }
            if markdown != "$GITHUB_STEP_SUMMARY" && !appended {
                problems.append("jobs.\(merge.job): the Markdown report \(markdown) is not appended to $GITHUB_STEP_SUMMARY (cat \(markdown) >> \"$GITHUB_STEP_SUMMARY\")")
            }
        }
        let uploaded = mergeSteps.indices.filter { $0 > merge.step && uses(mergeSteps[$0], "actions/upload-artifact") && isAlways(mergeSteps[$0]["if"]?.string) }
            .flatMap { CIPaths.lines(mergeSteps[$0]["with"]?["path"]?.string) }
        for kind in ["html", "json", "junit"] {
            guard let path = reports[kind] else { continue }
            if !uploaded.contains(where: { CIPaths.covers($0, path) }) {
                problems.append("jobs.\(merge.job): the merged \(kind) report \(path) is not uploaded by a step after the merge with if: ${{ !cancelled() }}")
            }
        }
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

    static func problems(_ text: String, spec: CommandSpec) throws -> [String] {
        var problems: [String] = []
        let root = try YAMLValue.parse(text)
        let jobs = jobs(root)

        var verify: (job: String, body: YAMLValue, invocation: Invocation)?
        var merge: (job: String, body: YAMLValue, invocation: Invocation)?
        for (job, body) in jobs {
            var runsContract = false
            for key in ["before_script", "script", "after_script"] {
                for command in Shell.commands(script(body, key)) where command.isContract {
                    runsContract = true
                    let invocation = Invocation(command.words, spec: spec)
                    problems += invocation.problems.map { "\(job).\(key): \($0)" }
                    if invocation.command == ["contract", "verify"], invocation.value("shard") != nil { verify = (job, body, invocation) }
                    if invocation.command == ["contract", "merge"] { merge = (job, body, invocation) }
                }
            }
            let rules = body["rules"]?.list ?? root["workflow"]?["rules"]?.list ?? []
            if runsContract, !rules.contains(where: { $0["if"]?.string?.contains(#"$CI_PIPELINE_SOURCE == "schedule""#) ?? false }) {
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

        guard let merge else { return problems + ["no job runs 'contract merge'"] }
        let needs = merge.body["needs"]?.strings
        if let needs, !needs.contains(verify.job) { problems.append("\(merge.job): needs does not list \(verify.job), so it gets none of its reports") }
        if needs == nil {
            let stages = root["stages"]?.strings ?? [".pre", "build", "test", "deploy", ".post"]
            let stage = { (body: YAMLValue) in stages.firstIndex(of: body["stage"]?.string ?? "test") ?? -1 }
            if stage(merge.body) <= stage(verify.body) { problems.append("\(merge.job) runs in no stage after \(verify.job)") }
        }
        let rules = merge.body["rules"]?.list ?? []
        let always = merge.body["when"]?.string == "always" || (!rules.isEmpty && rules.allSatisfy { $0["when"]?.string == "always" || $0["when"]?.string == "never" })
        if !always { problems.append("\(merge.job): runs only when every shard passed (when: always, in its rules)") }

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
}

// MARK: - Running the scripts

/// The shard and merge scripts of a CI file, run by bash in a folder per job, with the built
/// `contract` first on PATH (the build and install steps are what CI does instead).
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
        var summary: String?
        var mergedJSON: URL?
        var missingArtifacts: [String] = []
        var log = ""
    }

    static let contracts = ExampleAPITests.packageRoot.appendingPathComponent("contracts")

    static func environment(_ night: Night, _ extra: [String: String]) throws -> [String: String] {
        let bin = night.folder.appendingPathComponent("bin")
        if !FileManager.default.fileExists(atPath: bin.path) {
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("contract").path, withDestinationPath: ContractBinary.url.path)
        }
        var environment = ProcessInfo.processInfo.environment
        for name in ["MARKET_TOKEN", "STAGING_URL", "NO_COLOR"] { environment[name] = nil }
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["CI"] = "true"
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

    static func gitHub(_ text: String, _ night: Night) throws -> Outcome {
        var outcome = Outcome()
        let workflow = try YAMLValue.parse(text)
        let jobs = workflow["jobs"]?.pairs ?? []
        let runs = { (body: YAMLValue, command: String) in
            body["steps"]?.list.contains { ($0["run"]?.string ?? "").contains("contract \(command)") } ?? false
        }
        guard let verify = jobs.first(where: { runs($0.value, "verify") }), let merge = jobs.first(where: { runs($0.value, "merge") }) else {
            throw CIExampleError("no verify or merge job")
        }
        var values = ["vars.STAGING_URL": night.baseURL, "secrets.MARKET_TOKEN": "example-token"]
        let artifacts = night.folder.appendingPathComponent("artifacts")

        /// A job's steps: `run` steps that call contract, upload-artifact and download-artifact,
        /// each with its `if` (a step without one runs only while the job has not failed).
        func run(_ body: YAMLValue, in folder: URL, _ values: [String: String]) throws -> Int32? {
            var failedCode: Int32?
            var lastCode: Int32?
            for step in body["steps"]?.list ?? [] {
                let always = GitHubCheck.isAlways(step["if"]?.string)
                if failedCode != nil && !always { continue }
                let with = step["with"]
                if let script = step["run"]?.string, runsContract(script) {
                    let summary = night.folder.appendingPathComponent("step-summary.md")
                    var extra = ["GITHUB_STEP_SUMMARY": summary.path, "GITHUB_OUTPUT": night.folder.appendingPathComponent("output").path]
                    for (name, value) in (workflow["env"]?.pairs ?? []) + (body["env"]?.pairs ?? []) + (step["env"]?.pairs ?? []) {
                        extra[name] = try evaluate(value.string ?? "", values)
                    }
                    let code = try bash(try evaluate(script, values), in: folder, try environment(night, extra), log: &outcome.log)
                    lastCode = code
                    if code != 0 { failedCode = code }
                } else if GitHubCheck.uses(step, "actions/upload-artifact") {
                    let name = try evaluate(with?["name"]?.string ?? "artifact", values)
                    let paths = try CIPaths.lines(with?["path"]?.string).map { try evaluate($0, values) }
                    for path in paths {
                        let source = folder.appendingPathComponent(path)
                        if FileManager.default.fileExists(atPath: source.path) {
                            // One file is stored under its name; several under their paths.
                            try copy(source, to: artifacts.appendingPathComponent(name).appendingPathComponent(paths.count == 1 ? CIPaths.basename(path) : path))
                        } else if folder.lastPathComponent == "merge" {
                            outcome.missingArtifacts.append(path)
                        }
                    }
                } else if GitHubCheck.uses(step, "actions/download-artifact") {
                    let stored = (try? FileManager.default.contentsOfDirectory(atPath: artifacts.path)) ?? []
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
            return lastCode
        }

        let matrix = verify.value["strategy"]?["matrix"]?.pairs.first
        let shards = matrix?.value.list.compactMap(\.string) ?? []
        let baseline = verify.value["steps"]?.list.compactMap { $0["run"]?.string }.compactMap(baselinePath).first
        for shard in shards {
            if let skipped = night.skippedShard, shard == "\(skipped)" { continue }
            values["matrix.\(matrix?.key ?? "")"] = shard
            let folder = try checkout(night, "verify-\(shard)", baselinePath: baseline)
            outcome.shardCodes.append(try run(verify.value, in: folder, values) ?? -1)
        }
        let folder = night.folder.appendingPathComponent("merge")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        outcome.mergeCode = try run(merge.value, in: folder, values) ?? -1
        outcome.summary = try? String(contentsOf: night.folder.appendingPathComponent("step-summary.md"), encoding: .utf8)
        outcome.mergedJSON = mergedJSON(merge.value["steps"]?.list.compactMap { $0["run"]?.string } ?? [], in: folder)
        return outcome
    }

    static func mergedJSON(_ scripts: [String], in folder: URL) -> URL? {
        for script in scripts {
            for command in Shell.commands(script) where command.isContract && command.words.dropFirst().first == "merge" {
                for word in command.words where word.hasPrefix("json=") {
                    let file = folder.appendingPathComponent(String(word.dropFirst(5)))
                    if FileManager.default.fileExists(atPath: file.path) { return file }
                }
            }
        }
        return nil
    }

    static func gitLab(_ text: String, _ night: Night) throws -> Outcome {
        var outcome = Outcome()
        let root = try YAMLValue.parse(text)
        let jobs = GitLabCheck.jobs(root)
        let runs = { (body: YAMLValue, command: String) in GitLabCheck.script(body).contains("contract \(command)") }
        guard let verify = jobs.first(where: { runs($0.body, "verify") }), let merge = jobs.first(where: { runs($0.body, "merge") }) else {
            throw CIExampleError("no verify or merge job")
        }
        let variables = { (body: YAMLValue) in
            ((root["variables"]?.pairs ?? []) + (body["variables"]?.pairs ?? [])).reduce(into: [String: String]()) { $0[$1.key] = $1.value.string ?? "" }
        }
        let settings = ["STAGING_URL": night.baseURL, "MARKET_TOKEN": "example-token", "CI_PIPELINE_SOURCE": "schedule", "GITLAB_CI": "true"]
        let mergeFolder = night.folder.appendingPathComponent("merge")
        try FileManager.default.createDirectory(at: mergeFolder, withIntermediateDirectories: true)
        let parallel = Int(verify.body["parallel"]?.string ?? "") ?? 1
        let script = GitLabCheck.script(verify.body)
        for shard in 1...parallel where shard != night.skippedShard {
            let folder = try checkout(night, "verify-\(shard)", baselinePath: baselinePath(script))
            let extra = variables(verify.body).merging(settings) { $1 }.merging(["CI_NODE_INDEX": "\(shard)", "CI_NODE_TOTAL": "\(parallel)"]) { $1 }
            let code = try bash(script, in: folder, try environment(night, extra), log: &outcome.log)
            outcome.shardCodes.append(code)
            // Artifacts (when: always, or on success) come into the folder of the job that needs them, at the same paths.
            if code == 0 || verify.body["artifacts"]?["when"]?.string == "always" {
                for path in verify.body["artifacts"]?["paths"]?.strings ?? [] {
                    let expanded = Shell.expand(path, extra)
                    let source = folder.appendingPathComponent(expanded)
                    if FileManager.default.fileExists(atPath: source.path) { try copy(source, to: mergeFolder.appendingPathComponent(expanded)) }
                }
            }
        }
        let extra = variables(merge.body).merging(settings) { $1 }
        outcome.mergeCode = try bash(GitLabCheck.script(merge.body), in: mergeFolder, try environment(night, extra), log: &outcome.log)
        let artifacts = merge.body["artifacts"]
        for path in (artifacts?["paths"]?.strings ?? []) + [artifacts?["reports"]?["junit"]?.string].compactMap({ $0 }) {
            if !FileManager.default.fileExists(atPath: mergeFolder.appendingPathComponent(path).path) { outcome.missingArtifacts.append(path) }
        }
        outcome.mergedJSON = mergedJSON([GitLabCheck.script(merge.body)], in: mergeFolder)
        return outcome
    }
}
