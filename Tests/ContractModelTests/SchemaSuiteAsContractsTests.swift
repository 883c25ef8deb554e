import ContractJSON
import ContractModel
import Foundation
import TestSupport
import Testing

/// The required tests of the official JSON-Schema-Test-Suite (draft 2020-12 and draft 7), run
/// through `contract lint` rather than the validator alone: one contracts tree per draft, built in
/// memory, where each test group is a contract whose cases carry the group's schema as the
/// response `schema` and each test's data as the `example`. The suite's `remotes/` are the tree's
/// shared schema files under `schemas/remotes`, published at `http://localhost:1234/` by the
/// tree's `contract.json` (which also turns format assertion off, as the required suite expects),
/// so every remote reference resolves from the tree and nothing touches the network.
///
/// Valid data must lint clean; invalid data must give the example-does-not-match error and
/// nothing else. Known disagreements are listed in ``SchemaSuiteAsContractsKnownIssues``.
struct SchemaSuiteAsContractsTests {
    struct Case: Sendable, CustomStringConvertible {
        var draft: String
        var file: String
        var group: String
        var test: String
        var valid: Bool
        /// The contract file (relative to the tree) and the case's index in it.
        var contract: String
        var index: Int

        var id: String { "\(draft)/\(file): \(group) / \(test)" }
        var description: String { id }
    }

    /// A draft's tree, linted once, and its cases.
    struct LintedTree: Sendable {
        var cases: [Case]
        /// Diagnostics by display path.
        var diagnostics: [String: [Diagnostic]]
        var remoteCount: Int
    }

    static let root = SharedData.url("json-schema-test-suite")
    static let directory = "suite"

    static let tree2020_12 = linted("draft2020-12", metaSchema: nil)
    static let tree7 = linted("draft7", metaSchema: "http://json-schema.org/draft-07/schema#")

    @Test func everyRequiredTestIsATestHere() {
        #expect(Self.tree2020_12.cases.count == 1299)
        #expect(Self.tree7.cases.count == 927)
        #expect(Self.tree2020_12.remoteCount == 28)
        #expect(Self.tree7.remoteCount == 12)
    }

    /// Problems outside the cases: the remotes and the settings file must lint without errors
    /// (remotes no test uses are warned about, as any unreferenced schema file is).
    @Test(arguments: ["draft2020-12", "draft7"])
    func theRestOfTheTreeLintsWithoutErrors(_ draft: String) {
        let tree = draft == "draft7" ? Self.tree7 : Self.tree2020_12
        let outside = tree.diagnostics.filter { !$0.key.hasPrefix(Self.directory + "/tests/") }.values.joined()
        let errors = outside.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.rendered).joined(separator: "\n"))")
        let otherWarnings = outside.filter { $0.severity == .warning && $0.message != "schema file is not referenced by any contract" }
        #expect(otherWarnings.isEmpty, "\(otherWarnings.map(\.rendered).joined(separator: "\n"))")
    }

    @Test(arguments: tree2020_12.cases)
    func draft2020_12(_ testCase: Case) {
        check(testCase, in: Self.tree2020_12)
    }

    @Test(arguments: tree7.cases)
    func draft7(_ testCase: Case) {
        check(testCase, in: Self.tree7)
    }

    private func check(_ testCase: Case, in tree: LintedTree) {
        let problem = Self.disagreement(testCase, in: tree)
        if let reason = SchemaSuiteAsContractsKnownIssues.reasons[testCase.id] {
            withKnownIssue(Comment(rawValue: reason)) { #expect(problem == nil, "\(problem ?? "")") }
        } else {
            #expect(problem == nil, "\(problem ?? "")")
        }
    }

    /// Nil when lint agrees with the suite about the case.
    static func disagreement(_ testCase: Case, in tree: LintedTree) -> String? {
        let casePointer = JSONPointer(tokens: ["cases", String(testCase.index)])
        let examplePointer = casePointer.appending("response").appending("example")
        let file = directory + "/" + testCase.contract
        let all = tree.diagnostics[file] ?? []
        // A contract-level problem (in no case) belongs to every case of the group.
        let mine = all.filter { diagnostic in
            guard let pointer = diagnostic.pointer else { return true }
            return pointer.tokens.starts(with: casePointer.tokens) || !pointer.tokens.starts(with: ["cases"])
        }
        if testCase.valid {
            return mine.isEmpty ? nil : "valid data gave:\n" + mine.map(\.rendered).joined(separator: "\n")
        }
        let mismatches = mine.filter {
            $0.severity == .error && $0.message.hasPrefix("the 'example' does not match its schema: ")
                && ($0.pointer?.tokens.starts(with: examplePointer.tokens) ?? false)
        }
        if mismatches.isEmpty || mismatches.count != mine.count {
            return "invalid data gave:\n" + (mine.isEmpty ? "no diagnostic" : mine.map(\.rendered).joined(separator: "\n"))
        }
        return nil
    }

    /// The folders of `remotes/` written for one draft. A tree holds the remotes of its own draft
    /// and those of none (the top-level files, `nested/`, `baseUriChange*/`): no required test of
    /// a draft refers to another draft's folder, and those are written for dialects the validator
    /// does not implement (2019-09's `$recursiveAnchor` and meta-schemas, draft 4 and 6 plain-name
    /// `id`s, the next version `v1`), so as shared files of a draft 2020-12 or draft 7 tree they
    /// are, rightly, errors.
    static let draftFolders: Set<String> = ["draft3", "draft4", "draft6", "draft7", "draft2019-09", "draft2020-12", "v1"]

    static func isServed(_ remote: String, for draft: String) -> Bool {
        let folder = String(remote.prefix { $0 != "/" })
        return folder == draft || folder == remote || !draftFolders.contains(folder)
    }

    /// Builds the draft's tree in memory and lints it as `contract lint` does.
    static func linted(_ draft: String, metaSchema: String?) -> LintedTree {
        var files: [SourceFile] = []
        func add(_ relativePath: String, _ value: JSONValue) {
            let bytes = CanonicalJSONWriter(style: .compact, sortsKeys: false).bytes(value)
            files.append(SourceFile(path: directory + "/" + relativePath, relativePath: relativePath, bytes: bytes))
        }
        func parse(_ url: URL) -> JSONValue? {
            guard let data = try? Data(contentsOf: url) else { return nil }
            return try? JSONParser(tracksLocations: false).parse(Array(data)).value
        }
        /// The draft's default dialect, stated: a tree's schemas without `$schema` are draft 2020-12.
        func stating(_ schema: JSONValue) -> JSONValue {
            guard let metaSchema, let object = schema.objectValue, object["$schema"] == nil else { return schema }
            return .object(JSONObject([JSONObject.Member(key: "$schema", value: .string(metaSchema))] + object.members))
        }

        add(TreeSettings.fileName, .object(JSONObject([
            JSONObject.Member(key: "formatAssertion", value: .bool(false)),
            JSONObject.Member(key: "schemaURIs", value: .object(JSONObject([JSONObject.Member(key: "schemas/remotes", value: .string("http://localhost:1234/"))]))),
        ])))

        let remotes = root.appendingPathComponent("remotes")
        var remoteCount = 0
        let enumerator = FileManager.default.enumerator(at: remotes, includingPropertiesForKeys: nil)
        var remotePaths: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "json" else { continue }
            remotePaths.append(String(url.standardizedFileURL.path.dropFirst(remotes.standardizedFileURL.path.count + 1)))
        }
        for relative in remotePaths.sorted() where isServed(relative, for: draft) {
            guard let value = parse(remotes.appendingPathComponent(relative)) else { continue }
            add("schemas/remotes/" + relative, stating(value))
            remoteCount += 1
        }

        var cases: [Case] = []
        let folder = root.appendingPathComponent("tests").appendingPathComponent(draft)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            guard let groups = parse(folder.appendingPathComponent(name))?.arrayValue else { continue }
            let stem = String(name.dropLast(".json".count))
            for (groupIndex, group) in groups.enumerated() {
                guard let object = group.objectValue, let schema = object["schema"], let tests = object["tests"]?.arrayValue else { continue }
                let contract = "tests/\(stem)/\(groupIndex).json"
                var contractCases: [JSONValue] = []
                for (testIndex, test) in tests.enumerated() {
                    guard let testObject = test.objectValue, let data = testObject["data"], let valid = testObject["valid"]?.boolValue else { continue }
                    cases.append(Case(
                        draft: draft, file: name, group: object["description"]?.stringValue ?? "", test: testObject["description"]?.stringValue ?? "",
                        valid: valid, contract: contract, index: contractCases.count))
                    let response = JSONObject([
                        JSONObject.Member(key: "status", value: .number(JSONNumber(200))),
                        JSONObject.Member(key: "schema", value: stating(schema)),
                        JSONObject.Member(key: "example", value: data),
                    ])
                    contractCases.append(.object(JSONObject([
                        JSONObject.Member(key: "name", value: .string("t\(testIndex)")),
                        JSONObject.Member(key: "response", value: .object(response)),
                    ])))
                }
                add(contract, .object(JSONObject([
                    JSONObject.Member(key: "id", value: .string("\(stem).\(groupIndex)")),
                    JSONObject.Member(key: "request", value: .object(JSONObject([
                        JSONObject.Member(key: "method", value: .string("GET")), JSONObject.Member(key: "path", value: .string("/")),
                    ]))),
                    JSONObject.Member(key: "cases", value: .array(contractCases)),
                ])))
            }
        }
        files.sort { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
        let set = ContractLoader.load(files: files, directory: directory)
        return LintedTree(cases: cases, diagnostics: Dictionary(grouping: set.diagnostics, by: { $0.file ?? "" }), remoteCount: remoteCount)
    }
}

/// The one place the required tests lint cannot agree with are listed, each with its reason.
enum SchemaSuiteAsContractsKnownIssues {
    static let reasons: [String: String] = [:]
}
