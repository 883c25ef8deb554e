import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// How the executor orders and overlaps cases, against a real server on loopback that records
/// when each request began and ended.
struct RunSchedulingTests {
    /// Requests as the server saw them: method and path, and when each began and ended.
    ///
    /// A slow request waits for an event (another request arriving), not for a time: on a loaded
    /// machine a fixed delay may end before the executor has started what should overlap it. The
    /// wait gives up after ten minutes, so a request the executor wrongly holds back fails the test
    /// (the order it checks is wrong, and `waitedInVain` says so) rather than hanging it.
    final class Timeline: @unchecked Sendable {
        struct Span { let request: String; let start: ContinuousClock.Instant; let end: ContinuousClock.Instant }
        private let condition = NSCondition()
        private var spans: [Span] = []
        private var arrived: [String] = []
        private var gaveUp: [String] = []

        /// Answers `behavior` once `other` has arrived (at once when nil), recording the span.
        func serve(_ method: String, _ target: String, after other: String?, _ behavior: LoopbackHTTPServer.Behavior) -> LoopbackHTTPServer.Behavior {
            let start = ContinuousClock.now
            let request = "\(method) \(target)"
            condition.lock()
            defer { condition.unlock() }
            arrived.append(request)
            condition.broadcast()
            let deadline = Date().addingTimeInterval(600)
            while let other, !arrived.contains(other) {
                guard condition.wait(until: deadline) else {
                    gaveUp.append(request)
                    break
                }
            }
            spans.append(Span(request: request, start: start, end: .now))
            return behavior
        }

        func span(_ request: String) throws -> Span {
            try #require(condition.withLock { spans.first { $0.request == request } }, "the server never saw \(request)")
        }

        /// The requests whose wait ended with no sign of what they waited for.
        var waitedInVain: [String] { condition.withLock { gaveUp } }
    }

    /// Records every event as it arrives.
    // `names` is read and written only with `condition` locked.
    final class Arrivals: VerifyReporter, @unchecked Sendable {
        private let condition = NSCondition()
        private var names: [String] = []

        var finished: [String] { condition.withLock { names } }

        func receive(_ event: VerifyEvent) {
            guard let (result, _) = event.finished else { return }
            condition.withLock {
                names.append(result.name)
                condition.broadcast()
            }
        }

        /// Waits until `count` results have arrived; false when ten minutes went by first.
        func wait(for count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(600)
            condition.lock()
            defer { condition.unlock() }
            while names.count < count {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }

    static func load(_ files: [String: String]) throws -> ContractSet {
        let set = Fixtures.load(files)
        #expect(set.diagnostics.map(\.rendered) == [])
        return set
    }

    @Test func aSlowSetupStepHoldsBackNoOtherResult() async throws {
        var files = [
            "a.json": """
                { "id": "a", "request": { "method": "GET", "path": "/made/{id}" },
                  "cases": [ { "name": "slow-setup",
                    "setup": [ { "name": "token", "request": { "method": "GET", "path": "/slow-token" }, "status": 200,
                                 "capture": { "madeId": "/id" } } ],
                    "request": { "pathParams": { "id": "${capture:madeId}" } }, "response": { "status": 200 } } ] }
                """,
        ]
        let fast = (1...12).map { "b\($0)" }
        for name in fast {
            files["\(name).json"] = #"{ "id": "\#(name)", "request": { "method": "GET", "path": "/fast" }, "cases": [ { "name": "ok", "response": { "status": 200 } } ] }"#
        }
        // The slow setup step is answered once every other result has reached the reporters (or ten
        // minutes went by, which fails the test below): slow by an event, not by a delay.
        let arrivals = Arrivals()
        let answeredLate = Counter()
        let server = try LoopbackHTTPServer { method, target in
            switch target {
            case "/slow-token":
                if !arrivals.wait(for: fast.count) { _ = answeredLate.next() }
                return .json(status: 200, #"{"id": 7}"#)
            default: return .json(status: 200, "{}")
            }
        }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.concurrency = 4
        var console = ""
        let report = try await Verifier.run(
            try Self.load(files), options: options, reporters: [arrivals, ConsoleReporter(style: .plain) { console += $0 }])
        #expect(report.passed == 13)
        #expect(answeredLate.next() == 1, "the other results did not reach the reporters while the setup step was in flight")
        // The slow case is first in plan order and last to finish: every other result reached the
        // reporters as it finished, without waiting for it.
        #expect(arrivals.finished.last == "a/slow-setup")
        #expect(Set(arrivals.finished.dropLast()) == Set(fast.map { "\($0)/ok" }))
        // The plan-order views (console lines, report files, results) still list it first.
        #expect(report.results.first?.name == "a/slow-setup")
        #expect(console.split(separator: "\n").dropFirst().first?.hasPrefix("PASS  a/slow-setup") == true)
    }

    static let itemContracts = [
        "read.json": """
            { "id": "read", "request": { "method": "GET", "path": "/items/{id}" },
              "cases": [ { "name": "one", "request": { "pathParams": { "id": 1 } }, "response": { "status": 200 } } ] }
            """,
        "remove.json": """
            { "id": "remove", "request": { "method": "DELETE", "path": "/items/{id}" },
              "cases": [ { "name": "one", "request": { "pathParams": { "id": 1 } }, "response": { "status": 204 } } ] }
            """,
        "other.json": """
            { "id": "other", "request": { "method": "DELETE", "path": "/others/{id}" },
              "cases": [ { "name": "three", "request": { "pathParams": { "id": 3 } }, "response": { "status": 204 } } ] }
            """,
    ]

    func runItems(independent: Bool) async throws -> Timeline {
        let timeline = Timeline()
        let server = try LoopbackHTTPServer { method, target in
            switch (method, target) {
            // The read is in flight until the request that should overlap it has arrived.
            case ("GET", "/items/1"): timeline.serve(method, target, after: independent ? "DELETE /items/1" : "DELETE /others/3", .json(status: 200, "{}"))
            default: timeline.serve(method, target, after: nil, .respond(status: 204, headers: [], body: []))
            }
        }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.concurrency = 8
        options.independentCases = independent
        let report = try await Verifier.run(try Self.load(Self.itemContracts), options: options)
        #expect(report.results.map(\.name) == ["read/one", "other/three", "remove/one"], "reads first, then changes, each in id order")
        #expect(report.passed == 3)
        return timeline
    }

    @Test func aCaseThatChangesAnItemWaitsForTheCaseReadingIt() async throws {
        let timeline = try await runItems(independent: false)
        let read = try timeline.span("GET /items/1")
        #expect(try timeline.span("DELETE /items/1").start >= read.end, "the delete ran while the read of the same item was in flight")
        // A change elsewhere is not held back by it.
        #expect(try timeline.span("DELETE /others/3").start < read.end)
        #expect(timeline.waitedInVain == [], "the change elsewhere was held back by the read")
    }

    @Test func independentCasesOverlapFreely() async throws {
        let timeline = try await runItems(independent: true)
        #expect(try timeline.span("DELETE /items/1").start < timeline.span("GET /items/1").end)
        #expect(timeline.waitedInVain == [], "the delete was held back by the read")
    }
}

/// The queue alone: which case may start while others are in flight.
struct RunQueueTests {
    func access(_ method: String, _ path: String, id: String = "1") throws -> ResourceAccess {
        let set = Fixtures.load([
            "c.json": #"{ "id": "c", "request": { "method": "\#(method)", "path": "\#(path)" }, "cases": [ { "name": "x", "request": { "pathParams": { "id": "\#(id)" } }, "response": { "status": 200 } } ] }"#,
        ])
        let contract = try #require(set.contracts.first, "\(set.diagnostics.map(\.rendered))")
        return ResourceAccess(contract, contract.cases[0])
    }

    @Test func pathsOnOneBranchConflictOnlyWhenOneSideChangesState() throws {
        let readItem = try access("GET", "/items/{id}")
        let deleteItem = try access("DELETE", "/items/{id}")
        let deleteOther = try access("DELETE", "/items/{id}", id: "2")
        let createItem = try access("POST", "/items")
        let readReviews = try access("GET", "/items/{id}/reviews")
        #expect(!readItem.conflicts(with: readItem))
        #expect(deleteItem.conflicts(with: readItem) && readItem.conflicts(with: deleteItem))
        #expect(!deleteItem.conflicts(with: deleteOther), "another item")
        #expect(createItem.conflicts(with: readItem), "the collection holds the item")
        #expect(deleteItem.conflicts(with: readReviews), "the item holds its reviews")
        #expect(!(try access("DELETE", "/orders/{id}")).conflicts(with: readItem))
    }

    /// A followed link may go anywhere on the server: a case that follows one is on every branch.
    @Test func aFollowedLinkIsOnEveryPath() throws {
        let set = Fixtures.load([
            "c.json": #"""
                { "id": "c", "request": { "method": "GET", "path": "/letters" }, "cases": [ { "name": "x",
                  "setup": [ { "name": "s", "request": { "method": "GET", "path": "/letters" }, "capture": { "next": "/next" } } ],
                  "request": { "url": "${capture:next}" }, "response": { "status": 200 } } ] }
                """#,
        ])
        let contract = try #require(set.contracts.first, "\(set.diagnostics.map(\.rendered))")
        let follows = ResourceAccess(contract, contract.cases[0])
        #expect(follows.paths.contains([]))
        #expect(try access("DELETE", "/orders/{id}").conflicts(with: follows))
        #expect(!(try access("GET", "/orders/{id}")).conflicts(with: follows), "reads never conflict")
    }

    @Test func aHeldCaseStopsOnlyWhatConflictsWithIt() throws {
        let accesses = [
            try access("GET", "/items/{id}"), try access("DELETE", "/items/{id}"), try access("DELETE", "/orders/{id}"),
            try access("PUT", "/items/{id}"),
        ]
        let queue = RunQueue(accesses, independent: false) {}
        func next() -> String { Self.next(queue) }
        #expect(next() == "0")
        // 1 conflicts with 0 in flight; 2 touches other resources; 3 conflicts with 0 and with the held 1.
        #expect(next() == "2")
        #expect(next() == "wait")
        queue.finished(0)
        #expect(next() == "1")
        #expect(next() == "wait", "3 changes the item 1 is changing")
        queue.finished(1)
        #expect(next() == "3")
        #expect(next() == "end")
    }

    @Test func aWriteLimitHoldsCasesThatChangeStateWhateverTheyTouch() throws {
        let accesses = [
            try access("POST", "/items"), try access("DELETE", "/orders/{id}"), try access("GET", "/users/{id}"),
            try access("PUT", "/shops/{id}"),
        ]
        // Independent cases: only the limit holds them back.
        let queue = RunQueue(accesses, independent: true, writeLimit: 1) {}
        func next() -> String { Self.next(queue) }
        #expect(next() == "0")
        #expect(next() == "2", "a read passes the held write")
        #expect(next() == "wait", "one write in flight: 1 and 3 wait")
        queue.finished(0)
        #expect(next() == "1")
        #expect(next() == "wait")
        queue.finished(1)
        #expect(next() == "3")
        #expect(next() == "end")
    }

    @Test func withoutALimitIndependentWritesRunTogether() throws {
        let accesses = [try access("POST", "/items"), try access("DELETE", "/orders/{id}")]
        let queue = RunQueue(accesses, independent: true) {}
        guard case .start(0) = queue.next(), case .start(1) = queue.next() else {
            Issue.record("both writes should start at once")
            return
        }
    }

    /// What the queue hands out next: a position, `wait` or `end`.
    static func next(_ queue: RunQueue) -> String {
        switch queue.next() {
        case .start(let position): "\(position)"
        case .notYet: "wait"
        case .end: "end"
        }
    }
}
