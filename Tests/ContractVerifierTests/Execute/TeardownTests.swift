import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Teardown steps and `${unique:…}` values against a real stateful server on loopback: what a
/// case creates is removed after it whatever its outcome, a second nightly run on the data the
/// first left collides with nothing, and a failed cleanup is said without failing the case.
struct TeardownTests {
    static let contracts: [String: String] = [
        "things.json": """
            {
              "id": "things",
              "request": { "method": "GET", "path": "/things/{id}" },
              "cases": [
                { "name": "made-then-read",
                  "setup": [ { "name": "make", "request": { "method": "PUT", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" },
                                                            "body": { "label": "thing-${unique:id}" } }, "status": 201 } ],
                  "request": { "pathParams": { "id": "${unique:id}" } },
                  "response": { "status": 200 },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" } } } ] },
                { "name": "read-fails",
                  "setup": [ { "name": "make", "request": { "method": "PUT", "path": "/things/{id}", "pathParams": { "id": "${unique:other}" } }, "status": 201 } ],
                  "request": { "pathParams": { "id": "missing-${unique:other}" } },
                  "response": { "status": 200 },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${unique:other}" } } } ] },
                { "name": "setup-fails",
                  "setup": [
                    { "name": "make", "request": { "method": "PUT", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" } }, "status": 201 },
                    { "name": "refused", "request": { "method": "POST", "path": "/refuse" }, "status": 201, "capture": { "refusedId": "/id" } }
                  ],
                  "request": { "pathParams": { "id": "${capture:refusedId}" } },
                  "response": { "status": 200 },
                  "teardown": [
                    { "name": "never-made", "request": { "method": "DELETE", "path": "/refused/{id}", "pathParams": { "id": "${capture:refusedId}" } } },
                    { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" } } }
                  ] },
                { "name": "cleanup-fails",
                  "setup": [ { "name": "make", "request": { "method": "PUT", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" } }, "status": 201 } ],
                  "request": { "pathParams": { "id": "${unique:id}" } },
                  "response": { "status": 200 },
                  "teardown": [
                    { "name": "broken", "request": { "method": "DELETE", "path": "/broken/{id}", "pathParams": { "id": "${unique:id}" } } },
                    { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${unique:id}" } } }
                  ] }
              ]
            }
            """,
        "made.json": """
            {
              "id": "made",
              "request": { "method": "POST", "path": "/things" },
              "cases": [
                { "name": "created", "response": { "status": 201 }, "capture": { "madeId": "/id" },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:madeId}" } } } ] },
                { "name": "wrong-pointer", "response": { "status": 201 }, "capture": { "madeId": "/identifier" },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:madeId}" } } } ] },
                { "name": "busy", "response": { "status": 201 },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/busy/{id}", "pathParams": { "id": "x" } } } ] },
                { "name": "status-differs", "response": { "status": 200 }, "capture": { "madeId": "/id" },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:madeId}" } } } ] },
                { "name": "one-capture-missing", "response": { "status": 201 }, "capture": { "missing": "/nope", "madeId": "/id" },
                  "teardown": [ { "name": "remove", "request": { "method": "DELETE", "path": "/things/{id}", "pathParams": { "id": "${capture:madeId}" } } } ] }
              ]
            }
            """,
    ]

    /// A store of things by id: PUT makes one (409 when it exists), GET reads it, DELETE removes it.
    final class Store: Sendable {
        let things = Locked(Set<String>())
        let busy = Locked(0)

        func route(_ method: String, _ target: String) -> LoopbackHTTPServer.Behavior {
            let parts = target.split(separator: "/").map(String.init)
            switch (method, parts.first, parts.count) {
            case ("PUT", "things", 2):
                let made = things.withLock { $0.insert(parts[1]).inserted }
                return made ? .json(status: 201, #"{"id": "\#(parts[1])"}"#) : .json(status: 409, #"{"error": "exists"}"#)
            case ("GET", "things", 2):
                return things.withLock { $0.contains(parts[1]) } ? .json(status: 200, #"{"id": "\#(parts[1])"}"#) : .json(status: 404, "{}")
            case ("DELETE", "things", 2):
                return things.withLock { $0.remove(parts[1]) } != nil ? .respond(status: 204, headers: [], body: []) : .json(status: 404, "{}")
            case ("POST", "things", 1):
                let id = "made-\(UInt32.random(in: 0...UInt32.max))"
                things.withLock { _ = $0.insert(id) }
                return .json(status: 201, #"{"id": "\#(id)"}"#)
            case ("POST", "refuse", 1):
                return .json(status: 403, #"{"error": "forbidden"}"#)
            case ("DELETE", "broken", 2):
                return .json(status: 500, #"{"error": "cannot"}"#)
            case ("DELETE", "busy", 2):
                // Refuses the first two tries, as a server under load does.
                let tries = busy.withLock { count in
                    count += 1
                    return count
                }
                return tries <= 2 ? .json(status: 503, #"{"error": "database is locked"}"#) : .respond(status: 204, headers: [], body: [])
            default:
                return .json(status: 404, #"{"error": "no route"}"#)
            }
        }
    }

    func run(_ server: LoopbackHTTPServer, quiet: Bool = false) async throws -> (VerifyReport, String) {
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        options.concurrency = 4
        var console = ""
        let reporter = ConsoleReporter(style: .plain, quiet: quiet) { console += $0 }
        let report = try await Verifier.run(Fixtures.load(Self.contracts), options: options, reporters: [reporter])
        return (report, console)
    }

    func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == (name.contains("/") ? name : "things/\(name)") })
    }

    @Test func whatACaseMakesIsRemovedWhateverItsOutcome() async throws {
        let store = Store()
        let server = try LoopbackHTTPServer(route: store.route)
        defer { server.stop() }
        let (report, console) = try await run(server)

        #expect(try result(report, "made-then-read").outcome == .passed)
        #expect(try result(report, "made-then-read").teardown.isEmpty)
        #expect(try result(report, "read-fails").outcome == .failed)
        #expect(try result(report, "setup-fails").outcome == .failed)
        #expect(try result(report, "setup-fails").findings.map(\.kind) == [.setup])
        #expect(try result(report, "made/created").outcome == .passed)
        #expect(try result(report, "made/created").teardown.isEmpty)
        // The one thing left: the case that captured from a pointer its answer does not have.
        let wrongPointer = try result(report, "made/wrong-pointer")
        #expect(wrongPointer.outcome == .passed)
        #expect(wrongPointer.teardown.map(\.rule) == ["teardown.capture"])
        #expect(wrongPointer.teardown.first?.message.hasPrefix("the case's response: cannot capture 'madeId' at /identifier") == true)
        #expect(wrongPointer.teardown.first?.message.hasSuffix(", so the teardown steps that need it were not sent") == true)
        // A teardown step refused under load is asked again.
        #expect(try result(report, "made/busy").teardown.isEmpty)
        #expect(store.busy.withLock { $0 } == 3)
        // A create that answers 201 where the case says 200 fails the case, and still made the item.
        #expect(try result(report, "made/status-differs").outcome == .failed)
        #expect(try result(report, "made/status-differs").teardown.isEmpty)
        // A capture that fails does not stop the others: the item is still removed.
        #expect(try result(report, "made/one-capture-missing").teardown.map(\.rule) == ["teardown.capture"])
        // Left: the thing of the case that captured from a pointer its answer lacks, and the one
        // the busy case makes (its teardown removes something else).
        #expect(store.things.withLock { $0.count } == 2, "every thing made was removed but two: \(store.things.withLock { $0 })")

        // The teardown step that needs a capture the failed setup never made is not sent.
        #expect(!server.requests.contains { $0.target.hasPrefix("/refused") })

        // A teardown step that fails is said, and does not make a passing case fail.
        let cleanup = try result(report, "cleanup-fails")
        #expect(cleanup.outcome == .passed)
        #expect(cleanup.findings.isEmpty)
        #expect(cleanup.teardown.map(\.rule) == ["teardown.status"])
        #expect(cleanup.teardown.first?.message == "teardown step 'broken': expected status 2XX, 404 or 410, found 500")
        #expect(console.contains("warning: teardown step 'broken': expected status 2XX, 404 or 410, found 500 (a teardown step: not counted as drift)"))
        #expect(report.exitCode == 1, "read-fails and setup-fails are drift; the teardown is not")

        // The report keeps the teardown problems, apart from the findings, through a merge.
        let shard = try ShardReport.read(Array(JSONReport.render(report).utf8), file: "r.json").get()
        let read = try #require(shard.results.first { $0.name == "things/cleanup-fails" })
        #expect(read.teardown.map(\.message) == cleanup.teardown.map(\.message))
        #expect(read.findings.isEmpty)

        // A report that puts a teardown finding among the findings, or another kind under
        // teardown, is not one verify wrote: refused, never counted as drift.
        let rendered = JSONReport.render(report)
        let moved = rendered.replacingOccurrences(of: #""kind": "teardown""#, with: #""kind": "body""#)
        #expect(moved != rendered, "the report writes teardown findings with their kind")
        guard case .failure(let wrongKind) = ShardReport.read(Array(moved.utf8), file: "r.json") else {
            Issue.record("a teardown finding of kind 'body' was accepted")
            return
        }
        #expect(wrongKind.description.contains("expected 'teardown' in a case's teardown, found 'body'"), "\(wrongKind)")
    }

    @Test func uniqueValuesAreTheSameWithinACaseAndNewInEachCaseAndRun() async throws {
        let store = Store()
        let server = try LoopbackHTTPServer(route: store.route)
        defer { server.stop() }
        _ = try await run(server)
        _ = try await run(server)

        let puts = server.requests.filter { $0.method == "PUT" }.map(\.target)
        // Two runs of four cases, each making one thing with PUT: eight ids, none repeated.
        #expect(puts.count == 8)
        #expect(Set(puts).count == 8, "\(puts)")
        for target in puts {
            let id = String(target.dropFirst("/things/".count))
            #expect(id.count == UniqueValues.length)
            #expect(id.first.map { $0.isLetter && $0.isLowercase } == true)
            #expect(id.allSatisfy { ($0.isLetter && $0.isLowercase) || $0.isNumber })
        }
        // Within one case every use of a name is one value: the case read what its setup made,
        // and the body's text held the same value.
        let made = try #require(server.requests.first { $0.method == "PUT" && !$0.body.isEmpty })
        let id = String(made.target.dropFirst("/things/".count))
        #expect(String(decoding: made.body, as: UTF8.self) == #"{"label":"thing-\#(id)"}"#)
        #expect(server.requests.contains { $0.method == "GET" && $0.target == "/things/\(id)" })
        #expect(server.requests.contains { $0.method == "DELETE" && $0.target == "/things/\(id)" })
    }

    @Test func everyReportSaysWhatACleanupLeft() async throws {
        let store = Store()
        let server = try LoopbackHTTPServer(route: store.route)
        defer { server.stop() }
        let (report, _) = try await run(server)
        let message = "teardown step 'broken': expected status 2XX, 404 or 410, found 500"
        #expect(MarkdownReport.render(report).contains("### Teardown steps that failed"))
        #expect(MarkdownReport.render(report).contains(message))
        #expect(JUnitReport.render(report).contains("<system-err>warning: \(message)</system-err>"))
        #expect(HTMLReport.render(report).contains(message.replacingOccurrences(of: "'", with: "&#39;")))
    }

    @Test func aQuietRunStillSaysWhatItCouldNotCleanUp() async throws {
        let store = Store()
        let server = try LoopbackHTTPServer(route: store.route)
        defer { server.stop() }
        let (_, console) = try await run(server, quiet: true)
        #expect(console.contains("WARN  things/cleanup-fails  teardown"))
        #expect(console.contains("teardown step 'broken'"))
    }

    @Test func stableValuesAreTheSameEveryTimeAndFreshOnesDiffer() {
        #expect(UniqueValues.stable.value(for: "id") == UniqueValues.stable.value(for: "id"))
        #expect(UniqueValues.stable.value(for: "id") != UniqueValues.stable.value(for: "name"))
        let values = (0..<1_000).map { _ in UniqueValues.fresh().value(for: "id") }
        #expect(Set(values).count == values.count)
        // Each case of a run takes its own from the run's, no two alike.
        let run = UniqueValues.fresh()
        let cases = (0..<10_000).map { run.forCase($0).value(for: "id") }
        #expect(Set(cases).count == cases.count)
    }
}
