import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Whole runs of the verifier against a real server on loopback that misbehaves in every way a
/// nightly run meets: each case ends in the right outcome with a finding that says why.
struct VerifyRunTests {
    static let secret = "s3cr3t-t0ken-value"

    static let contracts: [String: String] = [
        "schemas/item.json": """
            { "type": "object", "required": ["id", "name"], "properties": { "id": { "type": "integer" }, "name": { "type": "string" } } }
            """,
        "items.json": """
            {
              "id": "items",
              "request": { "method": "GET", "path": "/items/{id}", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },
              "cases": [
                { "name": "ok", "request": { "pathParams": { "id": 1 } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "invalid-json", "request": { "pathParams": { "id": "invalid-json" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "wrong-type", "request": { "pathParams": { "id": "wrong-type" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "server-error", "request": { "pathParams": { "id": "server-error" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "echo", "request": { "pathParams": { "id": "echo" } },
                  "response": { "status": 200, "headers": { "X-Echo": { "present": false } }, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "reset", "request": { "pathParams": { "id": "reset" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } }
              ]
            }
            """,
        "text.json": """
            {
              "id": "text",
              "request": { "method": "GET", "path": "/text" },
              "cases": [ { "name": "not-utf8", "response": { "status": 200, "text": { "pattern": "^hello" } } } ]
            }
            """,
        "created.json": """
            {
              "id": "created",
              "request": { "method": "GET", "path": "/made/{id}" },
              "cases": [
                { "name": "after-setup",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/made", "body": { "name": "x" } },
                               "status": 201, "capture": { "madeId": "/id" } } ],
                  "request": { "pathParams": { "id": "${capture:madeId}" } },
                  "response": { "status": 200, "schema": { "$ref": "schemas/item.json" } } },
                { "name": "setup-fails",
                  "setup": [ { "name": "make", "request": { "method": "POST", "path": "/refuse" }, "status": 201, "capture": { "madeId": "/id" } } ],
                  "request": { "pathParams": { "id": "${capture:madeId}" } },
                  "response": { "status": 200 } }
              ]
            }
            """,
    ]

    static func route(_ method: String, _ target: String) -> LoopbackHTTPServer.Behavior {
        switch (method, target) {
        case ("GET", "/items/1"): .json(status: 200, #"{"id": 1, "name": "Pencil"}"#)
        case ("GET", "/items/invalid-json"): .json(status: 200, #"{"id": 1, "name": "Pencil""#)
        case ("GET", "/items/wrong-type"): .respond(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html></html>".utf8))
        case ("GET", "/items/server-error"): .json(status: 500, #"{"error": "boom"}"#)
        case ("GET", "/items/echo"):
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("X-Echo", "Bearer \(secret)")],
                body: Array(#"{"id": "Bearer \#(secret)", "name": 5}"#.utf8))
        case ("GET", "/items/reset"): .resetMidBody(declaredLength: 500, sent: Array(#"{"id": 1"#.utf8))
        case ("GET", "/text"): .respond(status: 200, headers: [("Content-Type", "text/plain")], body: [0x68, 0x65, 0xFF, 0xFE])
        case ("POST", "/made"): .json(status: 201, #"{"id": 42}"#)
        case ("GET", "/made/42"): .json(status: 200, #"{"id": 42, "name": "x"}"#)
        case ("POST", "/refuse"): .json(status: 403, #"{"error": "forbidden"}"#)
        default: .json(status: 404, #"{"error": "no route"}"#)
        }
    }

    /// Renders every file format from what it received, as the file reporters do.
    final class Collector: VerifyReporter {
        private struct State {
            var text = ""
            var results: [CaseResult] = []
            var order = PlanOrder<CaseResult>()
        }

        private let state = Locked(State())
        var text: String { state.withLock { $0.text } }

        func receive(_ event: VerifyEvent) {
            state.withLock { state in
                if case let (result, position)? = event.finished {
                    var order = state.order
                    order.add(result, at: position) { state.results.append($0) }
                    state.order = order
                } else if let summary = event.completed {
                    let report = VerifyReport(summary: summary, results: state.results)
                    state.text = JSONReport.render(report) + JUnitReport.render(report) + MarkdownReport.render(report)
                }
            }
        }
    }

    func run(baseURL: String, configure: (inout VerifyOptions) -> Void = { _ in }) async throws -> (VerifyReport, String) {
        var options = VerifyOptions(baseURL: baseURL)
        options.environment = ["TOKEN": Self.secret]
        options.http.timeout = .seconds(10)
        options.concurrency = 4
        configure(&options)
        let collector = Collector()
        var console = ""
        let reporter = ConsoleReporter(style: .plain) { console += $0 }
        let report = try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [reporter, collector])
        return (report, console + collector.text)
    }

    func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == name })
    }

    @Test func everyFaultEndsInItsOwnFinding() async throws {
        let server = try LoopbackHTTPServer(route: Self.route)
        let (report, output) = try await run(baseURL: server.baseURL)
        #expect(report.results.map(\.name) == [
            "items/ok", "items/invalid-json", "items/wrong-type", "items/server-error", "items/echo", "items/reset", "text/not-utf8",
            "created/after-setup", "created/setup-fails",
        ])
        #expect(try result(report, "items/ok").outcome == .passed)
        #expect(try result(report, "created/after-setup").outcome == .passed)
        #expect(server.requests.contains { $0.method == "GET" && $0.target == "/made/42" }, "the captured id reached the case's request")

        let setup = try result(report, "created/setup-fails")
        #expect(setup.outcome == .failed)
        #expect(setup.findings.map(\.message) == ["setup step 'make': expected status 201, found 403"])
        #expect(setup.request.url.hasSuffix("/refuse"), "the report shows the request that failed")

        let invalid = try result(report, "items/invalid-json")
        #expect(invalid.findings.map(\.kind) == [.body])
        #expect(invalid.findings[0].message.hasPrefix("expected a JSON body, found invalid JSON at line 1, column 27"))

        let wrongType = try result(report, "items/wrong-type")
        #expect(wrongType.findings.map(\.kind) == [.contentType, .body])

        let serverError = try result(report, "items/server-error")
        #expect(serverError.findings.map(\.message) == ["expected status 200, found 500 (the body was not checked: the contract describes the body of a 200 response)"])
        #expect(serverError.findings.first?.excerpt == #"{"error": "boom"}"#)

        let reset = try result(report, "items/reset")
        #expect(reset.outcome == .error)
        #expect(reset.transportError?.kind == .connectionLost)

        let text = try result(report, "text/not-utf8")
        #expect(text.findings.map(\.message) == ["expected UTF-8 text (the contract matches the body as text), found 0xFF, which is not UTF-8, at line 1, column 3 (byte 2)"])

        #expect(report.exitCode == 1)
        #expect(output.contains("reproduce: curl -i"))
    }

    @Test func noSecretReachesAnyOutput() async throws {
        let server = try LoopbackHTTPServer(route: Self.route)
        let (report, output) = try await run(baseURL: server.baseURL)
        let echo = try result(report, "items/echo")
        #expect(echo.findings.count == 3, "the echoed secret is in a header and in two body errors")
        #expect(output.contains("Bearer ***"))
        #expect(!output.contains(Self.secret))
        #expect(!"\(report.results)".contains(Self.secret))
        // It was sent all the same.
        #expect(server.requests.contains { $0.header("Authorization") == "Bearer \(Self.secret)" })
    }

    @Test func retriesCoverTransportErrorsOnlyAndAreReported() async throws {
        let attempts = Counter()
        let server = try LoopbackHTTPServer { method, target in
            guard target == "/items/reset" else { return Self.route(method, target) }
            return attempts.next() == 1 ? .resetMidBody(declaredLength: 100, sent: []) : .json(status: 200, #"{"id": 1, "name": "again"}"#)
        }
        let (report, output) = try await run(baseURL: server.baseURL) {
            $0.retries = 2
            $0.selection.ids = ["items/reset", "items/server-error"]
        }
        let reset = try result(report, "items/reset")
        #expect(reset.outcome == .passed && reset.attempts == 2)
        // A complete but wrong response is never retried.
        #expect(try result(report, "items/server-error").attempts == 1)
        #expect(!output.contains(Self.secret))
    }

    @Test func aServerThatIsDownExitsWithThree() async throws {
        let port = try LoopbackHTTPServer.closedPort()
        let (report, _) = try await run(baseURL: "http://127.0.0.1:\(port)") { $0.selection.ids = ["items"] }
        #expect(report.results.count == 6)
        #expect(report.results.allSatisfy { $0.outcome == .error && $0.isUnreachable })
        #expect(report.exitCode == 3)
    }

    @Test func retriesOfStreamedCasesAreCountedAndKeepPlanOrder() async throws {
        let port = try LoopbackHTTPServer.closedPort()
        let (report, output) = try await run(baseURL: "http://127.0.0.1:\(port)") {
            $0.retries = 2
            $0.selection.ids = ["items", "text"]
        }
        #expect(report.results.map(\.name) == [
            "items/ok", "items/invalid-json", "items/wrong-type", "items/server-error", "items/echo", "items/reset", "text/not-utf8",
        ])
        #expect(report.results.allSatisfy { $0.attempts == 3 && $0.isUnreachable })
        #expect(report.exitCode == 3)
        #expect(output.contains("(after 3 attempts)"))
        #expect(report.results.allSatisfy { $0.findings.first?.message.hasSuffix("(after 3 attempts)") == true })
    }

    @Test func anEmptySelectionIsAPlanError() async throws {
        let error = await #expect(throws: DiagnosticsError.self) {
            _ = try await run(baseURL: "http://127.0.0.1:1") { $0.selection.ids = ["nothing*"] }
        }
        #expect(error?.diagnostics.map(\.message) == ["no case matches the selection (--id, --tag)"])
    }

    @Test func aSetupStepWithoutResponseIsAnErrorNotDrift() async throws {
        let server = try LoopbackHTTPServer { _, target in
            target == "/made" ? .resetMidBody(declaredLength: 100, sent: Array(#"{"id""#.utf8)) : .json(status: 200, "{}")
        }
        let contracts = [
            "c.json": """
                { "id": "c", "request": { "method": "GET", "path": "/made/{id}" },
                  "cases": [ { "name": "x",
                    "setup": [ { "name": "make", "request": { "method": "POST", "path": "/made" }, "status": 201, "capture": { "id": "/id" } } ],
                    "request": { "pathParams": { "id": "${capture:id}" } }, "response": { "status": 200 } } ] }
                """,
        ]
        let report = try await Verifier.run(Fixtures.load(contracts), options: VerifyOptions(baseURL: server.baseURL))
        let result = try #require(report.results.first)
        #expect(result.outcome == .error && report.errors == 1 && report.failed == 0)
        #expect(result.findings.map(\.kind) == [.setup])
        #expect(result.findings.first?.message.hasPrefix("setup step 'make' got no response") == true)
        #expect(MarkdownReport.render(report).hasPrefix("## ❌ contract verify got no response for 1 case"))
    }

    @Test func anEmptyShardRunsNothingAndPasses() async throws {
        // A small tree in a wide CI matrix: some shards get no case, and that is no failure.
        let shards = try await (1...12).asyncMap { index in
            try await run(baseURL: "http://127.0.0.1:1") { $0.selection.shard = Shard(parsing: "\(index)/12") }.0
        }
        #expect(shards.map(\.total).reduce(0, +) == 9)
        let empty = try #require(shards.first { $0.total == 0 })
        #expect(empty.exitCode == 0)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var values: [T] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
