import ContractModel
import Testing

@testable import ContractDiff

/// Every rule of ``DiffRuleCatalog`` is reported, with the catalogue's severity, for a minimal
/// pair of trees (OLD, NEW) built in memory; and that pair reports no unrelated breaking change.
/// Rules outside schemas are here; schema concepts, each on both sides, in
/// `DiffRuleTests+Schema.swift`. The coverage test keeps the tables in step with the catalogue,
/// so a rule added without a pair fails it.
///
/// A pair the comparer gets wrong is marked with `knownIssue` (the bug, in a sentence): the
/// suite stays green while the bug is visible, and fails once the bug is fixed, so the mark is
/// taken out then.
struct DiffRuleTests {
    // MARK: Rules outside schemas

    @Test(arguments: ContractRulePair.all)
    func contractRule(_ pair: ContractRulePair) throws {
        let result = try DiffTrees.diff(pair.old, pair.new)
        DiffTrees.expect(result, reports: pair.rule, allowing: pair.alsoBreaking)
    }

    // MARK: Coverage

    /// The tables cover exactly the catalogue: a rule added without a pair, or a pair for a rule
    /// the catalogue no longer has, fails here.
    @Test func theTablesCoverEveryRuleOfTheCatalogue() {
        let catalogue = Set(DiffRuleCatalog.all.map(\.id))
        let covered = Set(ContractRulePair.all.map(\.rule)).union(SchemaPair.all.flatMap { pair in MessageSide.allCases.map(pair.rule) })
        #expect(catalogue.subtracting(covered).sorted() == [], "rules without a pair")
        #expect(covered.subtracting(catalogue).sorted() == [], "pairs for rules the catalogue does not have")
        #expect(DiffRuleCatalog.all.count == catalogue.count, "rule ids are unique")
    }

    /// The trees of every pair lint clean: a pair whose tree had an error would test nothing.
    /// (Each test also requires it; this names the file and the error at once.)
    @Test func everyTreeOfTheTablesLintsClean() throws {
        var trees = ContractRulePair.all.flatMap { [($0.rule, $0.old), ($0.rule, $0.new)] }
        for pair in SchemaPair.all {
            for side in MessageSide.allCases {
                trees.append((pair.rule(on: side), DiffTrees.schemaTree(pair.old, on: side)))
                trees.append((pair.rule(on: side), DiffTrees.schemaTree(pair.new, on: side)))
            }
        }
        for (rule, files) in trees {
            let set = DiffTrees.set(files, shownAs: "tree")
            #expect(!set.hasErrors, "\(rule): \(set.diagnostics.filter { $0.severity == .error }.map(\.rendered))")
        }
    }

    /// A request `schema` with no `body` beside it: lint accepts it (the request-side schema
    /// pairs rely on it).
    @Test func aRequestSchemaWithoutABodyLintsClean() {
        let set = DiffTrees.set(DiffTrees.schemaTree(#"{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}"#, on: .request), shownAs: "tree")
        #expect(set.diagnostics.filter { $0.severity == .error }.map(\.rendered) == [String]())
        #expect(set.contracts.first?.cases.first?.request.schema != nil)
        #expect(set.contracts.first?.cases.first?.request.body == nil)
    }
}

// MARK: - The table of rules outside schemas

/// A rule outside schemas, and a minimal pair of trees that reports it.
struct ContractRulePair: Sendable, CustomTestStringConvertible {
    let rule: String
    /// Files by path relative to the tree.
    let old: [String: String]
    let new: [String: String]
    /// Breaking rules the pair reports besides `rule`, because its change is also theirs.
    var alsoBreaking: Set<String> = []

    var testDescription: String { rule }

    typealias C = DiffTrees

    static let all: [ContractRulePair] = [
        // Contracts and endpoints.
        ContractRulePair(rule: "contract-removed", old: ["a.json": C.get("a", "/a"), "b.json": C.get("b", "/b")], new: ["a.json": C.get("a", "/a")]),
        ContractRulePair(rule: "contract-added", old: ["a.json": C.get("a", "/a")], new: ["a.json": C.get("a", "/a"), "b.json": C.get("b", "/b")]),
        ContractRulePair(rule: "contract-id-changed", old: ["things.json": C.get("things", "/things")], new: ["things.json": C.get("items", "/things")]),
        ContractRulePair(
            rule: "endpoint-method-changed", old: ["things.json": C.contract(method: "GET", cases: [C.kase()])],
            new: ["things.json": C.contract(method: "PUT", cases: [C.kase()])]),
        ContractRulePair(rule: "endpoint-path-changed", old: ["things.json": C.get("things", "/things")], new: ["things.json": C.get("things", "/items")]),

        // Cases.
        ContractRulePair(rule: "case-removed", old: C.cases(C.kase("a"), C.kase("b")), new: C.cases(C.kase("a"))),
        ContractRulePair(rule: "case-added", old: C.cases(C.kase("a")), new: C.cases(C.kase("a"), C.kase("b"))),

        // Statuses.
        ContractRulePair(rule: "response-status-changed", old: C.respond(#"{"status":200}"#), new: C.respond(#"{"status":201}"#)),
        ContractRulePair(rule: "response-status-widened", old: C.respond(#"{"status":200}"#), new: C.respond(#"{"status":"2XX"}"#)),
        ContractRulePair(rule: "response-status-narrowed", old: C.respond(#"{"status":"2XX"}"#), new: C.respond(#"{"status":200}"#)),

        // Response headers.
        ContractRulePair(
            rule: "response-header-removed", old: C.respond(#"{"status":200,"headers":{"X-Rate":"10"}}"#), new: C.respond(#"{"status":200}"#)),
        ContractRulePair(
            rule: "response-header-added", old: C.respond(#"{"status":200}"#), new: C.respond(#"{"status":200,"headers":{"X-Rate":"10"}}"#)),
        ContractRulePair(
            rule: "response-header-value-changed", old: C.respond(#"{"status":200,"headers":{"X-Rate":"10"}}"#),
            new: C.respond(#"{"status":200,"headers":{"X-Rate":"20"}}"#)),
        ContractRulePair(
            rule: "response-header-widened", old: C.respond(#"{"status":200,"headers":{"X-Rate":{"equals":"10"}}}"#),
            new: C.respond(#"{"status":200,"headers":{"X-Rate":{"pattern":"^[0-9]+$"}}}"#)),
        ContractRulePair(
            rule: "response-header-narrowed", old: C.respond(#"{"status":200,"headers":{"X-Rate":{"present":true}}}"#),
            new: C.respond(#"{"status":200,"headers":{"X-Rate":{"pattern":"^[0-9]+$"}}}"#)),
        ContractRulePair(
            rule: "response-header-pattern-changed", old: C.respond(#"{"status":200,"headers":{"X-Rate":{"pattern":"^[0-9]+$"}}}"#),
            new: C.respond(#"{"status":200,"headers":{"X-Rate":{"pattern":"^[a-f0-9]+$"}}}"#)),
        ContractRulePair(
            rule: "response-header-allowed", old: C.respond(#"{"status":200,"headers":{"X-Debug":{"present":false}}}"#), new: C.respond(#"{"status":200}"#)),
        ContractRulePair(
            rule: "response-header-forbidden", old: C.respond(#"{"status":200}"#), new: C.respond(#"{"status":200,"headers":{"X-Debug":{"present":false}}}"#)),
        ContractRulePair(
            rule: "response-header-may-repeat", old: C.respond(#"{"status":200,"headers":{"Set-Cookie":{"pattern":"^session="}}}"#),
            new: C.respond(#"{"status":200,"headers":{"Set-Cookie":{"pattern":"^session=","repeats":true}}}"#)),

        // Response bodies.
        ContractRulePair(
            rule: "response-body-kind-changed", old: C.respond(#"{"status":200,"schema":{"type":"object"}}"#), new: C.respond(#"{"status":200,"text":"ok"}"#)),
        ContractRulePair(
            rule: "response-body-added", old: C.respond(#"{"status":200,"empty":true}"#), new: C.respond(#"{"status":200,"schema":{"type":"object"}}"#)),
        ContractRulePair(
            rule: "response-body-unchecked", old: C.respond(#"{"status":200,"schema":{"type":"object"}}"#), new: C.respond(#"{"status":200}"#)),
        ContractRulePair(
            rule: "response-body-checked", old: C.respond(#"{"status":200}"#), new: C.respond(#"{"status":200,"schema":{"type":"object"}}"#)),
        ContractRulePair(rule: "response-text-changed", old: C.respond(#"{"status":200,"text":"ok"}"#), new: C.respond(#"{"status":200,"text":"fine"}"#)),
        ContractRulePair(
            rule: "response-text-widened", old: C.respond(#"{"status":200,"text":{"contains":["items","total"]}}"#),
            new: C.respond(#"{"status":200,"text":{"contains":["items"]}}"#)),
        ContractRulePair(
            rule: "response-text-narrowed", old: C.respond(#"{"status":200,"text":{"contains":["items"]}}"#),
            new: C.respond(#"{"status":200,"text":{"contains":["items","total"]}}"#)),
        ContractRulePair(
            rule: "response-text-pattern-changed", old: C.respond(#"{"status":200,"text":{"pattern":"^OK"}}"#),
            new: C.respond(#"{"status":200,"text":{"pattern":"^Done"}}"#)),
        ContractRulePair(
            rule: "response-binary-changed", old: C.respond(#"{"status":200,"binary":{"length":8}}"#), new: C.respond(#"{"status":200,"binary":{"length":9}}"#)),
        ContractRulePair(
            rule: "response-binary-narrowed", old: C.respond(#"{"status":200,"binary":{"maxLength":10}}"#),
            new: C.respond(#"{"status":200,"binary":{"maxLength":5}}"#)),

        // What a request sends.
        ContractRulePair(rule: "request-body-added", old: C.send(#"{}"#), new: C.send(#"{"body":{"name":"a"}}"#)),
        ContractRulePair(rule: "request-body-removed", old: C.send(#"{"body":{"name":"a"}}"#), new: C.send(#"{}"#)),
        ContractRulePair(
            rule: "request-content-type-changed", old: C.send(#"{"headers":{"Content-Type":"application/json"},"body":{"name":"a"}}"#),
            new: C.send(#"{"headers":{"Content-Type":"application/vnd.api+json"},"body":{"name":"a"}}"#)),
        ContractRulePair(rule: "request-schema-added", old: C.send(#"{}"#), new: C.send(#"{"schema":{"type":"object"}}"#)),
        ContractRulePair(rule: "request-schema-removed", old: C.send(#"{"schema":{"type":"object"}}"#), new: C.send(#"{}"#)),
        ContractRulePair(
            rule: "request-body-rejected", old: C.send(#"{"body":{"name":1}}"#),
            new: C.send(#"{"body":{"name":"a"},"schema":{"type":"object","properties":{"name":{"type":"string"}}}}"#)),
        ContractRulePair(
            rule: "request-header-added", old: C.cases(C.kase()), new: ["things.json": C.contract(endpoint: #","headers":{"X-Api-Key":"k"}"#, cases: [C.kase()])]),
        ContractRulePair(
            rule: "request-header-added-to-case", old: C.cases(C.kase("a"), C.kase("b")),
            new: C.cases(C.kase("a", request: #"{"headers":{"X-Trace":"1"}}"#), C.kase("b"))),
        ContractRulePair(
            rule: "request-header-removed", old: ["things.json": C.contract(endpoint: #","headers":{"X-Api-Key":"k"}"#, cases: [C.kase()])], new: C.cases(C.kase())),
        ContractRulePair(
            rule: "request-query-added", old: C.cases(C.kase()), new: ["things.json": C.contract(endpoint: #","query":{"page":1}"#, cases: [C.kase()])]),
        ContractRulePair(
            rule: "request-query-added-to-case", old: C.cases(C.kase("a"), C.kase("b")), new: C.cases(C.kase("a", request: #"{"query":{"page":1}}"#), C.kase("b"))),
        ContractRulePair(
            rule: "request-query-removed", old: ["things.json": C.contract(endpoint: #","query":{"page":1}"#, cases: [C.kase()])], new: C.cases(C.kase())),

        // What the endpoint describes (request.parameters), whatever its cases send.
        ContractRulePair(
            rule: "request-parameter-required", old: C.described(#"{"query":{"page":{"schema":{"type":"integer"}}}}"#, sending: #"{"query":{"page":1}}"#),
            new: C.described(#"{"query":{"page":{"required":true,"schema":{"type":"integer"}}}}"#, sending: #"{"query":{"page":1}}"#)),
        ContractRulePair(
            rule: "request-parameter-optional", old: C.described(#"{"header":{"X-Id":{"required":true}}}"#, sending: #"{"headers":{"X-Id":"a"}}"#),
            new: C.described(#"{"header":{"x-id":{}}}"#, sending: #"{"headers":{"X-Id":"a"}}"#)),
        ContractRulePair(rule: "request-parameter-added", old: C.cases(C.kase()), new: C.described(#"{"query":{"page":{"schema":{"type":"integer"}}}}"#)),
        ContractRulePair(rule: "request-parameter-removed", old: C.described(#"{"query":{"page":{}}}"#), new: C.cases(C.kase())),
        ContractRulePair(
            rule: "request-parameter-style-changed", old: C.described(#"{"query":{"ids":{"schema":{"type":"array"}}}}"#),
            new: C.described(#"{"query":{"ids":{"explode":false,"schema":{"type":"array"}}}}"#)),

        // The app's fixtures: OLD's example fails NEW's schema (a narrowing, safe on the response).
        ContractRulePair(
            rule: "fixture-no-longer-matches", old: C.respond(#"{"status":200,"schema":{"type":"integer"},"example":5}"#),
            new: C.respond(#"{"status":200,"schema":{"type":"integer","maximum":3},"example":1}"#)),

        // The tree's settings.
        ContractRulePair(
            rule: "tree-format-assertion-changed", old: C.cases(C.kase()).merging(["contract.json": #"{"formatAssertion":false}"#]) { $1 },
            new: C.cases(C.kase())),
    ]
}

// MARK: - Trees in memory

/// Minimal trees, loaded in memory, and what their diff must say.
enum DiffTrees {
    /// `things.json`: `METHOD /things` with these cases; `endpoint` is written inside the
    /// endpoint's `request` after its path (`,"headers":{…}`).
    static func contract(id: String = "things", method: String = "GET", path: String = "/things", endpoint: String = "", cases: [String]) -> String {
        #"{"id":"\#(id)","request":{"method":"\#(method)","path":"\#(path)"\#(endpoint)},"cases":[\#(cases.joined(separator: ","))]}"#
    }

    /// A case; `request` is the case's `request` object, when it has one.
    static func kase(_ name: String = "ok", request: String? = nil, response: String = #"{"status":200}"#) -> String {
        #"{"name":"\#(name)",\#(request.map { #""request":\#($0),"# } ?? "")"response":\#(response)}"#
    }

    /// A tree of one contract, `GET path`, with one case answering 200.
    static func get(_ id: String, _ path: String) -> String {
        contract(id: id, path: path, cases: [kase()])
    }

    /// `things.json`, `GET /things`, describing these `parameters`, its one case sending `request`.
    static func described(_ parameters: String, sending request: String? = nil) -> [String: String] {
        ["things.json": contract(endpoint: #","parameters":\#(parameters)"#, cases: [kase(request: request)])]
    }

    /// `things.json`, `GET /things`, with these cases.
    static func cases(_ cases: String...) -> [String: String] {
        ["things.json": contract(cases: cases)]
    }

    /// `GET /things`, one case with this response.
    static func respond(_ response: String) -> [String: String] {
        ["things.json": contract(cases: [kase(response: response)])]
    }

    /// `POST /things`, one case with this request, answering 201.
    static func send(_ request: String) -> [String: String] {
        ["things.json": contract(method: "POST", cases: [kase(request: request, response: #"{"status":201}"#)])]
    }

    /// A tree whose one case has `schema` as its response schema (`GET`) or its request schema
    /// (`POST`, no body).
    static func schemaTree(_ schema: String, on side: MessageSide) -> [String: String] {
        switch side {
        case .response: respond(#"{"status":200,"schema":\#(schema)}"#)
        case .request: send(#"{"schema":\#(schema)}"#)
        // An optional query parameter no case sends: only its description changes.
        case .parameter: ["things.json": contract(endpoint: #","parameters":{"query":{"p":{"schema":\#(schema)}}}"#, cases: [kase()])]
        }
    }

    static func set(_ files: [String: String], shownAs: String) -> ContractSet {
        let sources = files.keys.sorted().map { SourceFile(path: shownAs + "/" + $0, relativePath: $0, bytes: Array(files[$0, default: ""].utf8)) }
        return ContractLoader.load(files: sources, directory: shownAs)
    }

    /// The tree, required free of errors (an invalid tree would make the pair meaningless).
    static func tree(_ files: [String: String], shownAs: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> DiffTree {
        let set = set(files, shownAs: shownAs)
        try #require(
            !set.hasErrors, "the \(shownAs) tree has errors: \(set.diagnostics.filter { $0.severity == .error }.map(\.rendered))",
            sourceLocation: sourceLocation)
        return DiffTree(shownAs: shownAs, set: set, kind: .folder)
    }

    /// The diff of two trees, shown as `old` and `new` unless `shownAs` names them (the same name
    /// for both, as two imported OpenAPI documents are: their files are the import's own paths).
    static func diff(
        _ old: [String: String], _ new: [String: String], shownAs: (old: String, new: String) = ("old", "new"), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> DiffResult {
        DiffRun.compare(
            old: try tree(old, shownAs: shownAs.old, sourceLocation: sourceLocation), new: try tree(new, shownAs: shownAs.new, sourceLocation: sourceLocation))
    }

    /// Every change, one a line, for messages.
    static func shown(_ result: DiffResult) -> String {
        result.changes.isEmpty ? "no change" : result.changes.map { "\($0.rule) [\($0.severity.rawValue)] \($0.message)" }.joined(separator: "\n")
    }

    /// `result` reports `rule` with the catalogue's severity, and no breaking change under
    /// another rule but `allowing`.
    static func expect(
        _ result: DiffResult, reports rule: String, allowing alsoBreaking: Set<String>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let entry = DiffRuleCatalog.all.first(where: { $0.id == rule }) else {
            Issue.record("\(rule) is not in the catalogue", sourceLocation: sourceLocation)
            return
        }
        let found = result.changes.filter { $0.rule == rule }
        #expect(!found.isEmpty, "\(rule) is not reported; the diff reported:\n\(shown(result))", sourceLocation: sourceLocation)
        for change in found where change.severity != entry.severity {
            Issue.record("\(rule) is reported as \(change.severity.rawValue), the catalogue says \(entry.severity.rawValue): \(change.message)", sourceLocation: sourceLocation)
        }
        let unrelated = result.changes.filter { $0.rule != rule && $0.severity == .breaking && !alsoBreaking.contains($0.rule) }
        #expect(unrelated.isEmpty, "\(rule): unrelated breaking changes reported:\n\(shown(result))", sourceLocation: sourceLocation)
    }
}
