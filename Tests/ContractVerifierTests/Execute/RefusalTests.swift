import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A server that says "not now" (503 for a write that met SQLite's lock, 429 from a rate limiter)
/// against a real server on loopback: setup and teardown steps are asked again, a case's own
/// request only when the user named the status (`--retry-status`) and the case expects another,
/// and every answer that stands is checked as it is.
struct RefusalTests {
    static let contracts: [String: String] = [
        "runs.json": """
            {
              "id": "runs",
              "request": { "method": "POST", "path": "/runs" },
              "cases": [
                { "name": "made", "response": { "status": 201 } },
                { "name": "after-setup",
                  "setup": [ { "name": "make-flow", "request": { "method": "POST", "path": "/flows" }, "status": 201 } ],
                  "response": { "status": 201 } },
                { "name": "setup-always-refused",
                  "setup": [ { "name": "make-flow", "request": { "method": "POST", "path": "/locked" }, "status": 201 } ],
                  "response": { "status": 201 } },
                { "name": "expects-unavailable", "request": { "headers": { "X-Maintenance": "on" } }, "response": { "status": 503 } },
                { "name": "asks-for-a-minute", "request": { "headers": { "X-Wait": "60" } }, "response": { "status": 201 } }
              ]
            }
            """
    ]

    /// Refuses the first `refusals` requests to `path` with 503 (as Prefect does when SQLite is
    /// locked), then answers 201; `/locked` always refuses; `X-Maintenance` is always 503;
    /// `X-Wait: N` is 503 with `Retry-After: N`.
    final class Server: Sendable {
        let path: String
        let refusals: Int
        let seen = Locked([String: Int]())
        init(refusing path: String, times refusals: Int) {
            self.path = path
            self.refusals = refusals
        }

        func route(_ request: LoopbackHTTPServer.ReceivedRequest) -> LoopbackHTTPServer.Behavior {
            let key = request.target + (request.header("X-Maintenance") ?? "") + (request.header("X-Wait") ?? "")
            let tries = seen.withLock { seen in
                seen[key, default: 0] += 1
                return seen[key, default: 0]
            }
            if request.header("X-Maintenance") != nil { return .json(status: 503, #"{"detail": "maintenance"}"#) }
            if let wait = request.header("X-Wait") {
                return .respond(status: 503, headers: [("Retry-After", wait), ("Content-Type", "application/json")], body: Array("{}".utf8))
            }
            if request.target == "/locked" || (request.target == path && tries <= refusals) {
                return .json(status: 503, #"{"exception_message": "Service Unavailable"}"#)
            }
            return .json(status: 201, #"{"id": \#(tries)}"#)
        }

        func count(_ key: String) -> Int { seen.withLock { $0[key, default: 0] } }
    }

    func run(_ server: LoopbackHTTPServer, retries: Int = 0, retryStatuses: Set<Int> = []) async throws -> VerifyReport {
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        options.concurrency = 1
        options.retries = retries
        options.retryStatuses = retryStatuses
        return try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [])
    }

    func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == "runs/\(name)" })
    }

    @Test func aSetupStepRefusedForNowIsAskedAgainAndTheCaseGoesOn() async throws {
        let state = Server(refusing: "/flows", times: 2)
        let server = try LoopbackHTTPServer(routeRequest: state.route)
        defer { server.stop() }
        let report = try await run(server)

        // Asked again twice, without any option: a setup step checks nothing of the contract.
        let afterSetup = try result(report, "after-setup")
        #expect(state.count("/flows") == 3)
        #expect(afterSetup.outcome == .passed, "\(afterSetup.findings.map(\.message))")

        // Refused every time: the step fails after its last try, and says so.
        let refused = try result(report, "setup-always-refused")
        #expect(state.count("/locked") == 1 + Refusal.stepTries)
        #expect(refused.outcome == .failed)
        #expect(refused.findings.map(\.message) == ["setup step 'make-flow': expected status 201, found 503 (asked 4 times: refused each time)"])
        #expect(refused.attempts == 4)
    }

    @Test func aCasesOwnRequestIsCheckedAsAnsweredUnlessTheUserNamedTheStatus() async throws {
        let plain = Server(refusing: "/runs", times: 1)
        let server = try LoopbackHTTPServer(routeRequest: plain.route)
        defer { server.stop() }
        let report = try await run(server, retries: 3)
        // --retries alone is for transport errors: the 503 is the answer the case checks.
        let made = try result(report, "made")
        #expect(made.outcome == .failed)
        #expect(made.response?.status == 503)
        #expect(made.attempts == 1)

        let named = Server(refusing: "/runs", times: 2)
        let second = try LoopbackHTTPServer(routeRequest: named.route)
        defer { second.stop() }
        let retried = try await run(second, retries: 3, retryStatuses: [503])
        let madeAgain = try result(retried, "made")
        #expect(madeAgain.outcome == .passed, "\(madeAgain.findings.map(\.message))")
        #expect(madeAgain.attempts == 3)
        // A case that expects the refusal gets it at once: its answer is what it checks.
        #expect(try result(retried, "expects-unavailable").outcome == .passed)
        #expect(named.count("/runson") == 1)
        // A Retry-After beyond the longest wait is not waited for: the answer stands.
        let minute = try result(retried, "asks-for-a-minute")
        #expect(minute.outcome == .failed)
        #expect(minute.response?.status == 503)
        #expect(named.count("/runs60") == 1)
    }

    @Test func triesEndAtTheirLimitAndTheLastAnswerIsChecked() async throws {
        let state = Server(refusing: "/runs", times: 5)
        let server = try LoopbackHTTPServer(routeRequest: state.route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.concurrency = 1
        options.retries = 1
        options.retryStatuses = [503]
        let contracts = Fixtures.load(["runs.json": #"{"id": "runs", "request": {"method": "POST", "path": "/runs"}, "cases": [{"name": "made", "response": {"status": 201}}]}"#])
        let report = try await Verifier.run(contracts, options: options, reporters: [])
        let made = try result(report, "made")
        #expect(state.count("/runs") == 2)
        #expect(made.outcome == .failed)
        #expect(made.attempts == 2)
        #expect(ReportFormatting.details(made).contains("retries: 1 (after transport errors or 408, 429, 503 answers)"))
    }

    @Test func onlyStatusesThatSayTheRequestWasNotCarriedOutMayBeRetried() throws {
        var options = VerifyOptions(baseURL: "http://127.0.0.1:1")
        options.retries = 2
        for status in [408, 429, 503] {
            options.retryStatuses = [status]
            #expect(throws: Never.self) { try options.validate() }
        }
        for status in [500, 502, 504, 200, 404] {
            options.retryStatuses = [status]
            #expect(throws: DiagnosticsError.self) { try options.validate() }
            do {
                try options.validate()
            } catch {
                #expect(error.description.contains("--retry-status takes 408, 429 or 503"), "\(error)")
                #expect(error.description.contains("found \(status)"), "\(error)")
            }
        }
        options.retryStatuses = [503]
        options.retries = 0
        do {
            try options.validate()
            Issue.record("--retry-status without --retries was accepted")
        } catch {
            #expect(error.description.contains("--retry-status needs --retries N"), "\(error)")
        }
    }

    @Test func retryAfterIsReadAsSecondsOnly() {
        #expect(Refusal.retryAfterSeconds("120") == 120)
        #expect(Refusal.retryAfterSeconds(" 5\t") == 5)
        #expect(Refusal.retryAfterSeconds("0") == 0)
        // An HTTP-date, a negative or fractional number, an empty or huge value: the default pause.
        #expect(Refusal.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(Refusal.retryAfterSeconds("-1") == nil)
        #expect(Refusal.retryAfterSeconds("1.5") == nil)
        #expect(Refusal.retryAfterSeconds("") == nil)
        #expect(Refusal.retryAfterSeconds("99999999999999999999") == nil)
    }
}
