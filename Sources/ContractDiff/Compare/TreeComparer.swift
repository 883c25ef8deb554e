import ContractJSON
import ContractModel

/// Compares two loaded trees contract by contract and case by case, and lists every change
/// (``Change``) with its rule and severity. Pure: both trees are in memory.
struct TreeComparer {
    let old: TreeView
    let new: TreeView
    /// The fixtures `contract fixtures` writes from OLD, by `contract/case`: what the app's unit
    /// tests are served today.
    let oldFixtures: [String: JSONValue]
    var changes: [Change] = []
    private let newCatalog: SchemaCatalog

    init(old: TreeView, new: TreeView, oldFixtures: [String: JSONValue]) {
        self.old = old
        self.new = new
        self.oldFixtures = oldFixtures
        newCatalog = SchemaCatalog(new.set)
    }

    mutating func compare() {
        compareSettings()
        let pairs = ContractPairs(old: old.set.contracts, new: new.set.contracts)
        for contract in pairs.removed {
            add(.contractRemoved, contract, nil, subject: "endpoint", "\(ContractPairs.endpoint(contract)) is gone",
                old: old.side("\(contract.endpoint.method.rawValue) \(contract.endpoint.path)", in: contract, at: .root), new: nil,
                fixtures: Self.fixtures(of: contract))
        }
        for contract in pairs.added {
            add(.contractAdded, contract, nil, subject: "endpoint", "new endpoint \(contract.endpoint.method.rawValue) \(contract.endpoint.path)",
                old: nil, new: new.side("\(contract.endpoint.method.rawValue) \(contract.endpoint.path)", in: contract, at: .root))
        }
        for (before, after) in pairs.pairs { compare(before, after) }
    }

    private mutating func compareSettings() {
        let (before, after) = (old.set.settings.formatAssertion, new.set.settings.formatAssertion)
        guard before != after else { return }
        changes.append(Change(
            rule: ContractRule.formatAssertionChanged.id, severity: ContractRule.formatAssertionChanged.severity, contractID: "contract.json",
            caseName: nil, subject: "formatAssertion",
            message: after ? "every `format` is checked now: requests with values of another format are refused" : "no `format` is checked any more: responses may hold values of any format",
            old: old.side(String(before), file: "contract.json", pointer: JSONPointer(tokens: ["formatAssertion"])),
            new: new.side(String(after), file: "contract.json", pointer: JSONPointer(tokens: ["formatAssertion"]))))
    }

    // MARK: Contracts

    private mutating func compare(_ before: Contract, _ after: Contract) {
        if before.id != after.id {
            add(.contractIDChanged, before, nil, subject: "id", "the endpoint's contract is '\(after.id)' now, not '\(before.id)'",
                old: old.side(before.id, in: before, at: JSONPointer(tokens: ["id"])), new: new.side(after.id, in: after, at: JSONPointer(tokens: ["id"])),
                fixtures: Self.fixtures(of: before))
        }
        if before.endpoint.method != after.endpoint.method {
            add(.methodChanged, before, nil, subject: "method", "method \(before.endpoint.method.rawValue) to \(after.endpoint.method.rawValue)",
                old: old.side(before.endpoint.method.rawValue, in: before, at: Self.request("method")),
                new: new.side(after.endpoint.method.rawValue, in: after, at: Self.request("method")), fixtures: Self.fixtures(of: before))
        }
        if ContractPairs.shape(before.endpoint.path) != ContractPairs.shape(after.endpoint.path) {
            add(.pathChanged, before, nil, subject: "path", "path \(before.endpoint.path) to \(after.endpoint.path)",
                old: old.side(before.endpoint.path.description, in: before, at: Self.request("path")),
                new: new.side(after.endpoint.path.description, in: after, at: Self.request("path")), fixtures: Self.fixtures(of: before))
        }
        compareRequestParameters(before, after)
        compareParameterDescriptions(before, after)
        let newCases = Dictionary(after.cases.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for testCase in before.cases {
            guard let match = newCases[testCase.name] else {
                add(.caseRemoved, before, testCase, subject: "case", "case '\(testCase.name)' is gone", old: old.side(testCase.name, in: before, at: testCase.pointer), new: nil)
                continue
            }
            compareCase(testCase, of: before, match, of: after)
        }
        let oldNames = Set(before.cases.map(\.name))
        for testCase in after.cases where !oldNames.contains(testCase.name) {
            add(.caseAdded, after, testCase, subject: "case", "new case '\(testCase.name)'", old: nil, new: new.side(testCase.name, in: after, at: testCase.pointer), fixtures: [])
        }
    }

    private mutating func compareCase(_ before: ContractCase, of oldContract: Contract, _ after: ContractCase, of newContract: Contract) {
        var response = ResponseComparer(old: old, new: new, oldContract: oldContract, newContract: newContract, oldCase: before, newCase: after)
        response.compare()
        var request = RequestComparer(old: old, new: new, newCatalog: newCatalog, oldContract: oldContract, newContract: newContract, oldCase: before, newCase: after)
        request.compare()
        for finding in response.findings + request.findings {
            changes.append(Change(
                rule: finding.rule, severity: finding.severity, contractID: oldContract.id, caseName: before.name, subject: finding.subject,
                message: finding.message, old: finding.old, new: finding.new, fixtures: Self.fixtures(of: oldContract, before)))
        }
        if let fixture = oldFixtures["\(oldContract.id)/\(before.name)"],
            let mismatch = FixtureCheck.mismatch(fixture, against: after.response, catalog: newCatalog)
        {
            // A NEW schema that does not compile is reported, never taken for a pass.
            let message = switch mismatch {
            case .fails(let reason): "no longer matches: \(reason)"
            case .unchecked(let reason): "could not be checked: the NEW schema does not compile: \(reason)"
            }
            add(.fixtureNoLongerMatches, oldContract, before, subject: "fixture",
                "the app's fixture \(oldContract.id)/\(before.name).json \(message)",
                old: old.side(nil, in: oldContract, at: before.pointer.appending("response")),
                new: new.side(nil, in: newContract, at: after.pointer.appending("response")))
        }
    }

    /// Headers and query parameters the endpoint's cases send: one sent by every NEW case and
    /// no OLD one is required of clients now; one no NEW case sends any more may be refused.
    private mutating func compareRequestParameters(_ before: Contract, _ after: Contract) {
        for kind in RequestParameters.Kind.allCases {
            let (was, now) = (RequestParameters(before, kind), RequestParameters(after, kind))
            for name in now.everyCase.subtracting(was.anyCase).sorted() {
                add(kind == .header ? .requestHeaderRequired : .requestQueryRequired, before, nil, subject: "request \(kind.rawValue) '\(name)'",
                    "every case sends the \(kind.rawValue) '\(name)' now: clients must send it", old: nil,
                    new: new.side(now.firstValue(name), in: after, at: now.firstPlace(name)), fixtures: Self.fixtures(of: before))
            }
            for name in was.anyCase.subtracting(now.anyCase).sorted() {
                add(kind == .header ? .requestHeaderRemoved : .requestQueryRemoved, before, nil, subject: "request \(kind.rawValue) '\(name)'",
                    "no case sends the \(kind.rawValue) '\(name)' any more", old: old.side(was.firstValue(name), in: before, at: was.firstPlace(name)), new: nil)
            }
            for testCase in after.cases {
                guard let oldCase = before.cases.first(where: { $0.name == testCase.name }) else { continue }
                let added = now.names(in: testCase).subtracting(was.names(in: oldCase)).subtracting(now.everyCase.subtracting(was.anyCase))
                for name in added.sorted() {
                    add(kind == .header ? .requestHeaderAddedToCase : .requestQueryAddedToCase, before, oldCase, subject: "request \(kind.rawValue) '\(name)'",
                        "the case sends the \(kind.rawValue) '\(name)' now", old: nil, new: new.side(now.firstValue(name), in: after, at: now.firstPlace(name)))
                }
            }
        }
    }

    // MARK: Helpers

    mutating func add(
        _ rule: ContractRule, _ contract: Contract, _ testCase: ContractCase?, subject: String, _ message: String, old: Change.Side?, new: Change.Side?,
        fixtures: [String]? = nil
    ) {
        changes.append(Change(
            rule: rule.id, severity: rule.severity, contractID: contract.id, caseName: testCase?.name, subject: subject, message: message, old: old,
            new: new, fixtures: fixtures ?? testCase.map { Self.fixtures(of: contract, $0) } ?? []))
    }

    static func fixtures(of contract: Contract) -> [String] {
        contract.cases.map { "\(contract.id)/\($0.name).json" }
    }

    static func fixtures(of contract: Contract, _ testCase: ContractCase) -> [String] {
        ["\(contract.id)/\(testCase.name).json"]
    }

    static func request(_ key: String) -> JSONPointer { JSONPointer(tokens: ["request", key]) }
}

/// A change found by a case's comparer, before it is made a ``Change``.
struct CaseFinding: Sendable {
    let rule: String
    let severity: Change.Severity
    let subject: String
    let message: String
    let old: Change.Side?
    let new: Change.Side?

    init(_ rule: ContractRule, subject: String, _ message: String, old: Change.Side?, new: Change.Side?) {
        self.init(rule: rule.id, severity: rule.severity, subject: subject, message: message, old: old, new: new)
    }

    init(rule: String, severity: Change.Severity, subject: String, message: String, old: Change.Side?, new: Change.Side?) {
        self.rule = rule
        self.severity = severity
        self.subject = subject
        self.message = message
        self.old = old
        self.new = new
    }

    /// The findings of a schema comparison, read through the side of the exchange.
    static func schema(_ findings: [SchemaFinding], side: MessageSide) -> [CaseFinding] {
        findings.map {
            CaseFinding(
                rule: $0.concept.rule(on: side), severity: $0.concept.severity(on: side), subject: "\(side.rawValue) body \($0.path)",
                message: "\(side.rawValue) body \($0.path): \($0.message)", old: $0.old, new: $0.new)
        }
    }
}
