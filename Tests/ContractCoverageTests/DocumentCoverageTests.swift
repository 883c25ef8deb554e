import ContractCoverage
import ContractJSON
import ContractModel
import ContractOpenAPI
import Foundation
import TestSupport
import Testing

/// `contract coverage --openapi` on a tree the import wrote from the same document names exactly
/// what the import says it left out: the operations it skipped, and the responses its notes say
/// were not turned into cases.
struct DocumentCoverageTests {
    /// A document of `../shared/openapi-corpus` (its MANIFEST.md), each small enough to import in
    /// about a second in a debug build.
    struct CorpusDocument: Sendable, CustomTestStringConvertible {
        var path: String
        /// Whether the import leaves operations of it out (so the comparison is not vacuous).
        var leavesOperationsOut: Bool
        /// Whether the import leaves responses of its contracts without a case.
        var leavesResponsesOut: Bool

        var testDescription: String { path }
    }

    static let documents = [
        // Swagger 2.0, YAML with integer response keys: an `application/x-tar` body, an operation
        // answering only 101.
        CorpusDocument(path: "docker-engine/swagger.yaml", leavesOperationsOut: true, leavesResponsesOut: true),
        // 3.0: redirects only (302) on the `authorize` operations.
        CorpusDocument(path: "okta-oauth/oauth-minimal.yaml", leavesOperationsOut: true, leavesResponsesOut: true),
        // 3.0 split over 144 files, path items by `$ref`: multipart bodies; a callback, which is no
        // path operation.
        CorpusDocument(path: "onfido/openapi.yaml", leavesOperationsOut: true, leavesResponsesOut: true),
        // 3.1: every operation imported, some responses not.
        CorpusDocument(path: "localstack/openapi.yaml", leavesOperationsOut: false, leavesResponsesOut: true),
        // 3.2: operations without responses, whose one case expects any 2XX.
        CorpusDocument(path: "oai-3.2-tags-example/3.2-tags-example.yaml", leavesOperationsOut: false, leavesResponsesOut: false),
    ]

    /// The import's warnings that an operation made no contract, after the operation's label
    /// (`GET /path: …`).
    static let skippedAfterLabel = [
        "so no request can be made; skipped",
        "cannot be expressed in a contract; the operation is skipped",
        "no response can be exercised, so no contract was written",
    ]
    /// The same, placed at the operation without its label.
    static let skippedAtOperation = [
        "TRACE operations cannot be expressed in a contract; skipped",
        "this operation is left out: its contract does not lint",
    ]

    @Test(arguments: documents)
    func whatTheJoinLeavesUncoveredIsWhatTheImportLeftOut(_ document: CorpusDocument) throws {
        let path = SharedData.url("openapi-corpus/" + document.path).path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("coverage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let imported = OpenAPIImportRun.run(document: path, out: out, values: [])
        try #require(imported.exitCode == 0, "the import failed: \(imported.diagnostics.map(\.rendered))")
        let contracts = try ContractLoader.loadValid(directory: out).contracts
        let operations = try DocumentOperations.read(path: path, shownAs: path).operations
        let coverage = DocumentJoin.join(operations, contracts)
        #expect(coverage.map(\.label) == operations.map(\.label), "the join keeps the document's operations and their order")

        // (a) Operations: those without a contract are those the import says it skipped.
        let diagnostics = imported.diagnostics
        let skipped = Set(operations.filter { operation in
            diagnostics.contains { diagnostic in
                diagnostic.message.hasPrefix(operation.label + ": ") && Self.skippedAfterLabel.contains { diagnostic.message.hasSuffix($0) }
                    || diagnostic.file == operation.file && diagnostic.pointer == operation.pointer
                        && Self.skippedAtOperation.contains { diagnostic.message.hasPrefix($0) }
            }
        }.map(\.label))
        let uncovered = Set(coverage.filter { !$0.isCovered }.map(\.label))
        for label in uncovered.subtracting(skipped).sorted() {
            Issue.record("\(document.path): \(label) has no contract, but the import does not say it skipped it")
        }
        for label in skipped.subtracting(uncovered).sorted() {
            Issue.record("\(document.path): the import skipped \(label), but the join gives it a contract")
        }
        #expect(skipped.isEmpty != document.leavesOperationsOut, "\(document.path): the import left out \(skipped.count) operations")

        // (b) Responses of the operations that have a contract: those without a case are those the
        // import's note names as "not turned into cases". The import drops no case otherwise: an
        // example that does not match its schema loses the example, not the case, and a contract
        // that does not lint loses its whole operation (above).
        let casesByID = Dictionary(
            contracts.flatMap { contract in contract.cases.map { ("\(contract.id)/\($0.name)", $0) } }, uniquingKeysWith: { first, _ in first })
        var noted = 0
        for operation in coverage where operation.isCovered {
            let notTurned = Self.notTurnedIntoCases(operation.label, in: diagnostics)
            noted += notTurned.count
            for response in operation.responses {
                if notTurned.contains(response.key) {
                    // The note names the responses without a case of their own; a case made for
                    // another response may accept this one's statuses too, and that covers it.
                    for id in response.cases {
                        #expect(
                            casesByID[id].map { Self.accepts($0.response.status, besideItsOwn: response.key) } == true,
                            "\(document.path): \(operation.label) response \(response.key): the import says no case was made for it, but \(id) covers it")
                    }
                } else {
                    #expect(
                        response.isCovered,
                        "\(document.path): \(operation.label) response \(response.key) has no case, but the import's notes do not name it")
                }
            }
            let documented = Set(operation.responses.map(\.key))
            for key in notTurned.subtracting(documented).sorted() {
                Issue.record("\(document.path): \(operation.label): the import names response \(key), which the reader does not list")
            }
        }
        #expect((noted == 0) != document.leavesResponsesOut, "\(document.path): the import's notes name \(noted) responses")
    }

    /// The keys a note `LABEL: response(s) 400, 404 not turned into cases: …` names.
    static func notTurnedIntoCases(_ label: String, in diagnostics: [Diagnostic]) -> Set<String> {
        var keys: Set<String> = []
        for diagnostic in diagnostics where diagnostic.severity == .note {
            var message = Substring(diagnostic.message)
            guard message.hasPrefix(label + ": response"), let end = message.range(of: " not turned into cases") else { continue }
            message = message[message.index(message.startIndex, offsetBy: label.count + 2)..<end.lowerBound]
            guard let space = message.firstIndex(of: " ") else { continue }
            for key in message[message.index(after: space)...].split(separator: ", ") { keys.insert(String(key)) }
        }
        return keys
    }

    /// Whether a case the import made for another response accepts the statuses of `key` too:
    /// the import writes a case's own status first, then the others it accepts (the success case
    /// every 2XX of the same content, the case without credentials 403 beside 401); and a case
    /// made for a class (`4XX`) accepts each code of it. Never `default`, which the import turns
    /// into a case only where it stands for success, and then names in no note.
    static func accepts(_ status: StatusExpectation, besideItsOwn key: String) -> Bool {
        guard let own = status.alternatives.first else { return false }
        let others = StatusExpectation(Array(status.alternatives.dropFirst()))
        if let code = Int(key) {
            if case .class(let digit) = own, code / 100 == digit { return true }
            return own != .code(code) && others.accepts(code)
        }
        guard key.count == 3, key.uppercased().hasSuffix("XX"), let digit = key.first?.wholeNumberValue else { return false }
        return own != .class(digit) && others.alternatives.contains(.class(digit))
    }

    // MARK: - The join's rules, by hand

    static func operation(_ method: String, _ path: String, responses: [String]) -> DocumentOperation {
        DocumentOperation(
            method: method, path: path, requestPath: path, operationID: nil, responses: responses, file: "api.yaml", line: 1, column: 1, pointer: .root)
    }

    static func contract(_ id: String, _ method: HTTPMethod, _ path: String, cases: [(String, [StatusExpectation.Alternative])]) throws -> Contract {
        Contract(
            id: id, endpoint: Endpoint(method: method, path: try PathTemplate(parsing: path)),
            cases: cases.map { ContractCase(name: $0.0, response: ResponseExpectation(status: StatusExpectation($0.1)), pointer: .root) },
            file: id + ".json")
    }

    static func cases(_ coverage: OperationCoverage) -> [String: [String]] {
        Dictionary(coverage.responses.map { ($0.key, $0.cases) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func placeholdersMatchWhateverTheirNamesButATrailingSlashIsAnotherPath() throws {
        let operations = [
            Self.operation("GET", "/pets/{petId}", responses: ["200"]),
            Self.operation("GET", "/pets/", responses: ["200"]),
            Self.operation("DELETE", "/pets/{petId}", responses: ["204"]),
        ]
        let contracts = [
            try Self.contract("get-pet", .get, "/pets/{id}", cases: [("ok", [.code(200)])]),
            try Self.contract("list-pets", .get, "/pets", cases: [("ok", [.code(200)])]),
        ]
        let coverage = DocumentJoin.join(operations, contracts)
        #expect(coverage.map(\.contracts) == [["get-pet"], [], []])
        #expect(Self.cases(coverage[0]) == ["200": ["get-pet/ok"]])
        #expect(DocumentJoin.contractsOnNoOperation(operations, contracts) == ["list-pets"])
    }

    @Test func theRequestPathIsMatchedNotTheKeysFragmentOrQuery() throws {
        let shared = DocumentOperation(
            method: "GET", path: "/files/{id}#shared_link", requestPath: "/files/{id}", operationID: "getSharedLink", responses: ["200"], file: "api.yaml",
            line: 3, column: 5, pointer: JSONPointer(tokens: ["paths", "/files/{id}#shared_link", "get"]))
        let coverage = DocumentJoin.join([shared], [try Self.contract("getSharedLink", .get, "/files/{file_id}", cases: [("ok", [.code(200)])])])
        #expect(coverage.first?.contracts == ["getSharedLink"])
        #expect(coverage.first.map { [$0.path, $0.file, "\($0.line):\($0.column)"] } == ["/files/{id}#shared_link", "api.yaml", "3:5"])
    }

    @Test func aRangeIsCoveredByAnyCodeInItAndACodeByARangeHoldingIt() throws {
        let operations = [Self.operation("GET", "/pets", responses: ["200", "201", "4XX", "404", "5XX"])]
        let contracts = [
            try Self.contract("pets", .get, "/pets", cases: [("ok", [.code(200)]), ("not-found", [.code(404)]), ("client-error", [.class(4)])])
        ]
        #expect(Self.cases(DocumentJoin.join(operations, contracts)[0]) == [
            "200": ["pets/ok"], "201": [], "4XX": ["pets/not-found", "pets/client-error"], "404": ["pets/not-found", "pets/client-error"], "5XX": [],
        ])
    }

    @Test func manyResponsesOnOneOperationJoinInLinearTime() throws {
        // A hostile document may give one operation thousands of responses: each key used to list
        // all the others, N² for N keys (10,000 keys took 49 s).
        let contracts = [try Self.contract("pets", .get, "/pets", cases: [("ok", [.code(200)]), ("any", [.class(4)])])]
        let growth = try Growth.cpuRatio(size: 1_000, factor: 4) { count in
            let keys = ["200", "4XX", "default"] + (0..<count).map { "x\($0)" }
            let coverage = DocumentJoin.join([Self.operation("GET", "/pets", responses: keys)], contracts)
            #expect(coverage.first?.responses.count == count + 3)
        }
        #expect(growth.ratio < Growth.linearBound(factor: 4), "4 times the responses cost \(growth.ratio) times the CPU time (\(growth.small) s, \(growth.large) s)")
    }

    @Test func defaultIsCoveredOnlyByAStatusNoOtherKeyDescribes() throws {
        let operations = [Self.operation("GET", "/pets", responses: ["200", "4XX", "default"])]
        let described = [try Self.contract("pets", .get, "/pets", cases: [("ok", [.code(200)]), ("bad", [.code(400)])])]
        #expect(Self.cases(DocumentJoin.join(operations, described)[0])["default"] == [])
        let other = [try Self.contract("pets", .get, "/pets", cases: [("ok", [.code(200)]), ("unavailable", [.code(503)]), ("success", [.class(2)])])]
        // 503 is no other key's, and `2XX` holds 201…299, which `200` does not describe.
        #expect(Self.cases(DocumentJoin.join(operations, other)[0])["default"] == ["pets/unavailable", "pets/success"])
    }

    @Test func aDefaultStandingForSuccessIsCoveredByTheImportsAny2XXCase() throws {
        // The import's reading of an operation documenting no success: `default`'s case expects 2XX.
        let operations = [Self.operation("POST", "/pets", responses: ["400", "default"])]
        let contracts = [try Self.contract("create-pet", .post, "/pets", cases: [("success", [.class(2)])])]
        #expect(Self.cases(DocumentJoin.join(operations, contracts)[0]) == ["400": [], "default": ["create-pet/success"]])
    }

    @Test func aCaseAcceptingSeveralStatusesCoversEachOfTheirResponses() throws {
        // The import's success case for every 2XX of the same content, and its case without
        // credentials accepting 403 beside 401.
        let operations = [Self.operation("PUT", "/pets/{id}", responses: ["200", "201", "401", "403"])]
        let contracts = [
            try Self.contract(
                "put-pet", .put, "/pets/{id}", cases: [("ok", [.code(200), .code(201)]), ("no-credentials", [.code(401), .code(403)])])
        ]
        #expect(Self.cases(DocumentJoin.join(operations, contracts)[0]) == [
            "200": ["put-pet/ok"], "201": ["put-pet/ok"], "401": ["put-pet/no-credentials"], "403": ["put-pet/no-credentials"],
        ])
    }

    @Test func twoContractsOnOneOperationBothCoverItInTheirOrder() throws {
        let operations = [Self.operation("GET", "/pets/{id}", responses: ["200", "404"])]
        let contracts = [
            try Self.contract("imported", .get, "/pets/{petId}", cases: [("ok", [.code(200)])]),
            try Self.contract("written", .get, "/pets/{id}", cases: [("found", [.code(200)]), ("missing", [.code(404)])]),
        ]
        let coverage = DocumentJoin.join(operations, contracts)[0]
        #expect(coverage.contracts == ["imported", "written"])
        #expect(Self.cases(coverage) == ["200": ["imported/ok", "written/found"], "404": ["written/missing"]])
        #expect(DocumentJoin.contractsOnNoOperation(operations, contracts).isEmpty)
    }

    @Test func aKeyThatIsNoStatusIsCoveredByNothingAndTraceByNoContract() throws {
        let operations = [Self.operation("GET", "/pets", responses: ["200 OK", "200"]), Self.operation("TRACE", "/pets", responses: ["200"])]
        let contracts = [try Self.contract("pets", .get, "/pets", cases: [("ok", [.class(2)])])]
        let coverage = DocumentJoin.join(operations, contracts)
        #expect(Self.cases(coverage[0]) == ["200 OK": [], "200": ["pets/ok"]])
        #expect(coverage[1].contracts.isEmpty && coverage[1].responses.map(\.isCovered) == [false])
    }
}
