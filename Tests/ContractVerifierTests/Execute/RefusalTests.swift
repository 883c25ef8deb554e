import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A server that says "not now" (503 for a write that met SQLite's lock, 429 from a rate limiter)
/// against a real server on loopback: a setup step or a case's own request is asked again only
/// when the user named the status (`--retry-status`) and it expects another, within `--retries`,
/// which transport errors share; every answer that stands is checked as it is.
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

    /// One case, `runs/made`: a POST expecting 201, one request at a time.
    func runMade(_ server: LoopbackHTTPServer, retries: Int, retryStatuses: Set<Int>) async throws -> CaseResult {
        var options = VerifyOptions(baseURL: server.baseURL)
        options.concurrency = 1
        options.retries = retries
        options.retryStatuses = retryStatuses
        let contracts = Fixtures.load(["runs.json": #"{"id": "runs", "request": {"method": "POST", "path": "/runs"}, "cases": [{"name": "made", "response": {"status": 201}}]}"#])
        return try result(try await Verifier.run(contracts, options: options, reporters: []), "made")
    }

    func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == "runs/\(name)" })
    }

    @Test func aSetupStepRefusedForNowIsAskedAgainWhenTheUserNamedTheStatus() async throws {
        // Without --retry-status the refusal is the step's answer: a proxy may say 503 for a
        // create its server carried out, and a second one would go unnoticed.
        let plain = Server(refusing: "/flows", times: 2)
        let first = try LoopbackHTTPServer(routeRequest: plain.route)
        defer { first.stop() }
        let unasked = try result(try await run(first, retries: 3), "after-setup")
        #expect(plain.count("/flows") == 1)
        #expect(unasked.outcome == .failed)
        #expect(unasked.findings.map(\.message) == ["setup step 'make-flow': expected status 201, found 503"])

        let state = Server(refusing: "/flows", times: 2)
        let server = try LoopbackHTTPServer(routeRequest: state.route)
        defer { server.stop() }
        let report = try await run(server, retries: 3, retryStatuses: [503])
        let afterSetup = try result(report, "after-setup")
        #expect(state.count("/flows") == 3)
        #expect(afterSetup.outcome == .passed, "\(afterSetup.findings.map(\.message))")

        // Refused every time: the step fails once its tries are spent, and says so.
        let refused = try result(report, "setup-always-refused")
        #expect(state.count("/locked") == 4)
        #expect(refused.outcome == .failed)
        #expect(refused.findings.map(\.message) == ["setup step 'make-flow': expected status 201, found 503 (refused each of the 4 times it was sent)"])
        #expect(refused.attempts == 4)
    }

    @Test func aStepRefusedThenAnsweredOtherwiseSaysSoTruly() async throws {
        // 503 once, then 400: the message says the step was sent again, not that it was refused
        // each time.
        let flows = Locked(0)
        let server = try LoopbackHTTPServer(routeRequest: { request in
            guard request.target == "/flows" else { return .json(status: 201, "{}") }
            let count = flows.withLock { count in
                count += 1
                return count
            }
            return count == 1 ? .json(status: 503, "{}") : .json(status: 400, "{}")
        })
        defer { server.stop() }
        let report = try await run(server, retries: 3, retryStatuses: [503])
        let afterSetup = try result(report, "after-setup")
        #expect(afterSetup.findings.map(\.message) == ["setup step 'make-flow': expected status 201, found 400 (sent again after a refusal)"])
        #expect(afterSetup.attempts == 2)
    }

    @Test func transportErrorsAndRefusalsShareOneBudget() async throws {
        // Each try is dropped once, then refused: with --retries 3 the request is sent 4 times
        // in all, whatever the mix, and its attempts say 4.
        let sent = Locked(0)
        let server = try LoopbackHTTPServer(routeRequest: { _ in
            let count = sent.withLock { count in
                count += 1
                return count
            }
            return count.isMultiple(of: 2) ? .json(status: 503, "{}") : .resetMidBody(declaredLength: 100, sent: Array("{".utf8))
        })
        defer { server.stop() }
        let made = try await runMade(server, retries: 3, retryStatuses: [503])
        #expect(sent.withLock { $0 } == 4)
        #expect(made.attempts == 4)
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
        let made = try await runMade(server, retries: 1, retryStatuses: [503])
        #expect(state.count("/runs") == 2)
        #expect(made.outcome == .failed)
        #expect(made.attempts == 2)
        #expect(ReportFormatting.details(made).contains("retries: 1 (after transport errors or answers of --retry-status)"))
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
        options.retries = Refusal.maxRetries + 1
        do {
            try options.validate()
            Issue.record("--retries above its limit was accepted")
        } catch {
            #expect(error.description.contains("--retries is at most 100"), "\(error)")
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

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDate() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2015-10-21T07:28:00Z"))
        #expect(Refusal.askedWait("120", now: now) == .after(.seconds(120)))
        #expect(Refusal.askedWait(" 5\t", now: now) == .after(.seconds(5)))
        #expect(Refusal.askedWait("0", now: now) == .after(.zero))
        // A number too long to read asks for longer than anyone waits.
        #expect(Refusal.askedWait("99999999999999999999", now: now) == .after(.seconds(Int(Int32.max))))
        // An HTTP-date: the time until then, none once past.
        #expect(Refusal.askedWait("Wed, 21 Oct 2015 07:28:03 GMT", now: now) == .after(.seconds(3)))
        #expect(Refusal.askedWait("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == .after(.zero))
        #expect(Refusal.askedWait("Fri, 31 Dec 2099 23:59:59 GMT", now: now) != .after(.zero))
        // Anything else: the default pause.
        for unreadable in ["-1", "1.5", "", "soon", "٣"] {
            #expect(Refusal.askedWait(unreadable, now: now) == .unreadable, "\(unreadable)")
        }
        // The default pause grows to a second and stays there.
        #expect((1...8).map(Refusal.defaultPause) == [250, 500, 750, 1000, 1000, 1000, 1000, 1000].map { .milliseconds($0) })
    }

    @Test func aWaitLongerThanTheLongestLeavesTheAnswerStanding() async throws {
        for asked in ["11", "99999999999999999999", "Fri, 31 Dec 2099 23:59:59 GMT"] {
            let sent = Locked(0)
            let server = try LoopbackHTTPServer(routeRequest: { _ in
                sent.withLock { $0 += 1 }
                return .respond(status: 503, headers: [("Retry-After", asked)], body: [])
            })
            defer { server.stop() }
            let made = try await runMade(server, retries: 3, retryStatuses: [503])
            #expect(sent.withLock { $0 } == 1, "Retry-After: \(asked)")
            #expect(made.response?.status == 503)
        }
    }

    /// Teardown steps are asked again after 429 or 503 without any option, a few times, after a
    /// `Retry-After` of at most a second; never when the step expects the refusal.
    @Test func aTeardownStepIsAskedAgainAFewTimesUnlessItExpectsTheRefusal() async throws {
        let sent = Locked([String: Int]())
        let server = try LoopbackHTTPServer(routeRequest: { request in
            sent.withLock { $0[request.target, default: 0] += 1 }
            switch request.target {
            case "/runs": return .json(status: 201, "{}")
            case "/soon": return .respond(status: 503, headers: [("Retry-After", "0")], body: [])
            case "/later": return .respond(status: 503, headers: [("Retry-After", "5")], body: [])
            default: return .json(status: 503, "{}")
            }
        })
        defer { server.stop() }
        let contract = #"""
            {"id": "runs", "request": {"method": "POST", "path": "/runs"}, "cases": [
              {"name": "soon", "response": {"status": 201}, "teardown": [{"name": "remove", "request": {"method": "DELETE", "path": "/soon"}}]},
              {"name": "later", "response": {"status": 201}, "teardown": [{"name": "remove", "request": {"method": "DELETE", "path": "/later"}}]},
              {"name": "expected", "response": {"status": 201}, "teardown": [{"name": "remove", "request": {"method": "DELETE", "path": "/gone"}, "status": 503}]}]}
            """#
        var options = VerifyOptions(baseURL: server.baseURL)
        options.concurrency = 1
        let report = try await Verifier.run(Fixtures.load(["runs.json": contract]), options: options, reporters: [])
        #expect(sent.withLock { $0["/soon"] } == 1 + Refusal.teardownTries)
        #expect(try result(report, "soon").teardown.map(\.message) == [
            "teardown step 'remove': expected status 2XX, 404 or 410, found 503 (refused each of the 4 times it was sent)"
        ])
        // A wait longer than a second is not waited for: the answer stands, as a warning.
        #expect(sent.withLock { $0["/later"] } == 1)
        #expect(try result(report, "later").teardown.map(\.rule) == ["teardown.status"])
        // The refusal the step expects is its answer.
        #expect(sent.withLock { $0["/gone"] } == 1)
        #expect(try result(report, "expected").teardown.isEmpty)
    }
}
