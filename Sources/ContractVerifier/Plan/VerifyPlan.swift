import ContractJSON
import ContractModel
import ContractSchema

/// One case ready to run: where it comes from and its compiled response schema. A class: the
/// executor hands cases between threads tens of thousands of times a second, and a reference is
/// one retain where copying the contract and case was dozens.
final class PlannedCase: Sendable {
    /// The case's contract, shared by its cases: a copy of the contract in every planned case
    /// was about 300 bytes and a retain per field, for each of a large tree's cases.
    /// Read on the run's path as `owner.contract`, a stored constant read in place: ``contract``
    /// returns a copy, a retain per field.
    let owner: PlannedContract
    /// The case itself, stored: read through its contract's array (`cases[index]`), every use
    /// on the run's path (starting it, checking its response, its teardown) copied the whole
    /// case, a retain per field, several times per case. Its contract keeps no copy of it
    /// (``PlannedContract``), so a planned case costs no more memory than before.
    let testCase: ContractCase
    let responseSchema: JSONSchema?
    /// The response schema's verdict taken while the body is parsed, where its keywords allow.
    let streaming: StreamingValidator?
    /// A POST, PUT, PATCH or DELETE among its requests (``ResourceAccess/changes``).
    let changesState: Bool
    /// Its place in the whole run's plan (every shard together), from 0.
    let position: Int
    /// The compiled pattern of each of its response's header checks, by index (nil for other
    /// matchers, for a pattern with placeholders and for one that does not compile): found once
    /// here, so that the check of each response looks up no pattern by its text.
    let headerPatterns: [HeaderPattern?]

    init(
        contract: PlannedContract, testCase: ContractCase, responseSchema: JSONSchema?, streaming: StreamingValidator? = nil, position: Int,
        headerPatterns: [HeaderPattern?] = []
    ) {
        owner = contract
        self.testCase = testCase
        self.responseSchema = responseSchema
        self.streaming = streaming
        self.position = position
        self.headerPatterns = headerPatterns
        changesState = ResourceAccess.changesState(contract.contract, testCase)
    }

    var contract: Contract { owner.contract }

    /// The resources it touches; worked out only for runs that have cases changing state.
    var access: ResourceAccess { ResourceAccess(contract, testCase) }

    var name: String { "\(contract.id)/\(testCase.name)" }
}

/// A contract as its planned cases share it: without its cases, which each planned case holds.
final class PlannedContract: Sendable {
    let contract: Contract

    init(_ contract: Contract) {
        var shared = contract
        shared.cases = []
        self.contract = shared
    }
}

/// The plan stage: check the options, select the cases, check that every secret they use is set,
/// compile each response schema once, and put the cases in the order they run (``RunOrder``).
/// Deterministic: the same contracts and options give the same plan. The plan keeps the contracts
/// and the shared schema files, not the parsed contract documents: a caller that lets go of the
/// set after planning runs in far less memory.
public struct VerifyPlan: Sendable {
    public let options: VerifyOptions
    /// The selected cases in run order, which is also the order reports list them in.
    let cases: [PlannedCase]
    /// Every schema of the tree, compiled on demand once: the response schemas and what checks
    /// refer to.
    let catalog: SchemaCatalog
    let secrets: Secrets
    /// Every header and text pattern the cases check, compiled once.
    let patterns: [String: ECMARegex]
    /// The baseline the findings are marked against, if any.
    let baseline: BaselineCheck?
    /// What the run is, for reports and for putting shards back together.
    public let identity: RunIdentity

    /// The number of cases the plan runs.
    public var caseCount: Int { cases.count }

    /// - Throws: ``DiagnosticsError`` with every problem found, each placed in its contract.
    public init(_ set: ContractSet, options: VerifyOptions) throws(DiagnosticsError) {
        do {
            try options.validate()
        } catch {
            throw DiagnosticsError([.argumentError(error.message)])
        }
        let places = PlanProblemPlaces(set)
        let catalog = SchemaCatalog(set, assertsFormats: options.assertsFormats)
        var problems: [Diagnostic] = []
        var cases: [PlannedCase] = []
        var missing: [String: MissingVariable] = [:]
        var used: Set<String> = []
        var patterns: [String: ECMARegex] = [:]
        // Each distinct header pattern once, its literal form with it, shared by every case that has it.
        var headerPatternsByText: [String: HeaderPattern] = [:]
        var streamingBySchema: [ObjectIdentifier: StreamingValidator?] = [:]
        let selection = options.selection
        // Every shard knows the whole run's order, so that reports of the shards merge into the
        // report of one run (``RunIdentity``). An empty shard is no error (a small tree in a wide
        // CI matrix); an empty selection is.
        let whole = Self.wholeRun(set, selection)
        let positions = Dictionary(whole.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for contract in set.contracts.sorted(by: { $0.id < $1.id }) {
            let shared = PlannedContract(contract)
            for testCase in contract.cases {
                let name = "\(contract.id)/\(testCase.name)"
                guard let position = positions[name] else { continue }
                if let shard = selection.shard, !shard.contains(name) { continue }
                for variable in Set(Self.environmentVariables(contract, testCase)) {
                    if options.environment[variable] == nil {
                        // The first user places the diagnostic; the others are named in it.
                        missing[variable, default: MissingVariable(place: (contract, testCase))].users.append(name)
                    } else {
                        used.insert(variable)
                    }
                }
                var schema: JSONSchema? = nil
                if case .json(let reference, _) = testCase.response.body.base {
                    do {
                        schema = try catalog.compile(reference)
                    } catch {
                        problems.append(places.error(
                            "the response schema of '\(name)' does not compile: \(error)", file: reference.file, at: reference.pointer))
                    }
                }
                // A pattern with placeholders is made and compiled when its values are known.
                let headerPatterns = testCase.response.headers.map { header -> HeaderPattern? in
                    guard case .pattern(let pattern) = header.matcher, !pattern.mayHoldPlaceholder else { return nil }
                    if let known = headerPatternsByText[pattern] { return known }
                    guard let regex = Self.compiled(pattern, in: &patterns) else { return nil }
                    let made = HeaderPattern(regex: regex, literal: LiteralPattern(pattern))
                    headerPatternsByText[pattern] = made
                    return made
                }
                // Every pattern the body's conditions hold (one, or one among `contains` and lengths).
                for pattern in testCase.response.body.patterns { _ = Self.compiled(pattern, in: &patterns) }
                // Worked out once per compiled schema: every case that refers to one shares it.
                var streaming: StreamingValidator?
                if let schema {
                    if let known = streamingBySchema[schema.identity] {
                        streaming = known
                    } else {
                        streaming = schema.streamingValidator()
                        streamingBySchema[schema.identity] = .some(streaming)
                    }
                }
                cases.append(PlannedCase(
                    contract: shared, testCase: testCase, responseSchema: schema, streaming: streaming, position: position, headerPatterns: headerPatterns))
            }
        }
        for header in options.extraHeaders {
            for variable in header.value?.environmentVariables ?? [] {
                if options.environment[variable] == nil {
                    missing[variable, default: MissingVariable(place: nil)].users.append("--header '\(header.name)'")
                } else {
                    used.insert(variable)
                }
            }
        }
        for (variable, missing) in missing.sorted(by: { $0.key < $1.key }) {
            let users = missing.users
            let shown = users.prefix(3).joined(separator: ", ") + (users.count > 3 ? " and \(users.count - 3) more" : "")
            let message = "environment variable \(variable) is not set; it is used by \(shown)"
            if let (contract, testCase) = missing.place {
                problems.append(places.error(message, file: contract.file, at: places.firstUse(of: variable, in: contract, testCase)))
            } else {
                problems.append(.argumentError(message))
            }
        }
        if whole.isEmpty && problems.isEmpty { problems.append(.argumentError("no case matches the selection (--id, --tag)")) }
        guard problems.isEmpty else { throw DiagnosticsError(problems) }
        self.options = options
        self.catalog = catalog
        // The whole run's order, kept: a shard's cases are a part of it.
        self.cases = cases.sorted { $0.position < $1.position }
        identity = RunIdentity(
            tree: set.treeDigest, plan: RunIdentity.planDigest(whole.map(\.name), assertsFormats: catalog.assertsFormats), cases: whole.count,
            baseline: options.baseline.map { SHA256.hex(Array($0.text.utf8)) }, failOn: options.failOn, shard: selection.shard)
        self.patterns = patterns
        let treeCases = Set(set.contracts.flatMap { contract in contract.cases.map { "\(contract.id)/\($0.name)" } })
        let secrets = Secrets(used.compactMap { options.environment[$0] } + Self.credentials(in: options))
        // People write the baseline's reasons; one may quote a token. Shown as every other text is.
        baseline = options.baseline.map { BaselineCheck($0.shown(through: secrets), today: options.today ?? CalendarDay.today(), cases: treeCases) }
        self.secrets = secrets
    }

    /// The cases of the whole run, every shard together, in the order they run (``RunOrder``).
    private static func wholeRun(_ set: ContractSet, _ selection: CaseSelection) -> [(name: String, changesState: Bool)] {
        var selected: [(name: String, changesState: Bool)] = []
        for contract in set.contracts.sorted(by: { $0.id < $1.id }) {
            for testCase in contract.cases {
                let name = "\(contract.id)/\(testCase.name)"
                guard isSelected(contract, testCase, name: name, selection) else { continue }
                selected.append((name, ResourceAccess.changesState(contract, testCase)))
            }
        }
        return RunOrder.arranged(selected) { $0.changesState }
    }

    /// An environment variable the selected cases or `--header`s need, and nobody set.
    private struct MissingVariable {
        /// The first case that uses it, where the diagnostic points; nil when only `--header`s do.
        var place: (Contract, ContractCase)?
        /// `id/case` of each case, then `--header 'Name'` of each header, that uses it.
        var users: [String] = []
    }

    /// The values of credential headers given on the command line, as sent, and the user
    /// information of a base URL (`https://user:password@host`).
    private static func credentials(in options: VerifyOptions) -> [String] {
        credentials(headers: options.extraHeaders, baseURL: options.baseURL, environment: options.environment)
    }

    /// The same from the parts of options, for a run refused before its options are whole.
    static func credentials(headers: [HeaderField], baseURL: String, environment: [String: String]) -> [String] {
        // Credential headers hold no unique values: the stable ones do.
        let bindings = Bindings(environment: environment, unique: .stable)
        var secrets = headers.flatMap { header -> [String] in
            guard let value = header.value, CredentialHeaders.isCredential(header.name) else { return [] }
            return CredentialHeaders.secretParts(of: bindings.render(value))
        }
        if let userInformation = BaseURL.userInformation(baseURL) {
            secrets += BaseURL.secretParts(ofUserInformation: userInformation)
        }
        return secrets
    }

    /// `pattern` compiled, once per run: looked up in `patterns`, or compiled and kept there.
    private static func compiled(_ pattern: String, in patterns: inout [String: ECMARegex]) -> ECMARegex? {
        if let known = patterns[pattern] { return known }
        let compiled = try? ECMARegex(pattern)
        patterns[pattern] = compiled
        return compiled
    }

    private static func isSelected(_ contract: Contract, _ testCase: ContractCase, name: String, _ selection: CaseSelection) -> Bool {
        if !selection.ids.isEmpty, !selection.ids.contains(where: { Glob.matches($0, contract.id) || Glob.matches($0, name) }) {
            return false
        }
        if !selection.tags.isEmpty, Set(contract.tags + testCase.tags).isDisjoint(with: selection.tags) {
            return false
        }
        return true
    }

    /// Every `${env:…}` the case may send: endpoint, case, setup and teardown requests, and header checks.
    static func environmentVariables(_ contract: Contract, _ testCase: ContractCase) -> [String] {
        // The case's own headers and query replace the endpoint's, and may remove them.
        var request = testCase.request
        request.headers = contract.headers(for: testCase)
        request.query = contract.query(for: testCase)
        var templates = request.templates
        for step in testCase.setup + testCase.teardown { templates += step.request.templates }
        templates += testCase.response.templates
        return templates.flatMap(\.environmentVariables)
    }
}
