import ContractHTTP
import ContractModel
import TestSupport
import Testing

@testable import ContractVerifier

/// A server that refuses the load (SQLite's "database is locked" as a 503, a rate limit's 429)
/// fails cases for a reason the contract does not hold: the run says so and what to change.
struct LoadHintTests {
    static let contracts: [String: String] = [
        "notes.json": """
            {
              "id": "notes",
              "request": { "method": "POST", "path": "/notes", "body": { "text": "x" } },
              "cases": [
                { "name": "created", "response": { "status": 201 } },
                { "name": "created-again", "request": { "body": { "text": "y" } }, "response": { "status": 201 } },
                { "name": "after-setup",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/limited" } } ],
                  "response": { "status": 201 } }
              ]
            }
            """
    ]

    func run(
        _ contracts: [String: String] = Self.contracts, _ route: @escaping @Sendable (String, String) -> LoopbackHTTPServer.Behavior
    ) async throws -> (VerifyReport, String) {
        let server = try LoopbackHTTPServer(route: route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        var console = ""
        let reporter = ConsoleReporter(style: .plain) { console += $0 }
        let report = try await Verifier.run(Fixtures.load(contracts), options: options, reporters: [reporter])
        return (report, console)
    }

    @Test func refusalsUnderLoadEndInAHint() async throws {
        let (report, console) = try await run { _, target in
            target == "/limited"
                ? .respond(status: 429, headers: [("Retry-After", "1")], body: [])
                : .respond(status: 503, headers: [("Content-Type", "application/json")], body: Array(#"{"detail": "database is locked"}"#.utf8))
        }
        #expect(report.summary.refusedUnderLoad == 3)
        #expect(report.summary.refusedWithRetryAfter == 1, "the setup step's 429 said when to come back")
        #expect(console.contains(
            "hint: 3 cases were answered 429 Too Many Requests or 503 Service Unavailable (1 with Retry-After): the server may be refusing the load, not the contract. Try fewer requests at once: --write-concurrency 1 (cases that change state) or a lower --concurrency; or, where the server means \"ask again\" by it, --retries 3 --retry-status 503 (or 429)."))
    }

    @Test func aRefusalTheCaseExpectsGivesNoHint() async throws {
        let contracts = ["limit.json": #"{ "id": "limit", "request": { "method": "GET", "path": "/limit" }, "cases": [ { "name": "limited", "response": { "status": 429 } } ] }"#]
        let (report, console) = try await run(contracts) { _, _ in .respond(status: 429, headers: [("Retry-After", "1")], body: []) }
        #expect(report.summary.passed == 1)
        #expect(report.summary.refusedUnderLoad == 0)
        #expect(!console.contains("hint:"))
    }

    @Test func otherFailuresGiveNoHint() async throws {
        let (report, console) = try await run { _, _ in .json(status: 500, "{}") }
        #expect(report.summary.refusedUnderLoad == 0)
        #expect(!console.contains("hint:"))
    }
}
