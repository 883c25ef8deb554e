import ContractHTTP
import ContractJSON
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A case that did not pass shows how to reproduce the state it failed in: the setup steps sent
/// before the deciding request, in order, with the values they captured filled in, then that
/// request; against a loopback server that makes items and echoes the run's secret back, which
/// no report may show in any form.
struct ReproductionChainTests {
    /// A secret with characters that URLs, JSON and regular expressions each write another way.
    static let token = "s3cr.et+Zq9/W=="

    static let create = """
        { "name": "create", "request": { "method": "POST", "path": "/items", "headers": { "Authorization": "Bearer ${env:TOKEN}" }, "body": { "name": "desk" } },
          "status": 201, "capture": { "itemId": "/id", "session": { "header": "X-Session" } } }
        """

    static let contracts: [String: String] = [
        "items.json": """
            {
              "id": "items",
              "request": { "method": "GET", "path": "/items/{id}" },
              "cases": [
                { "name": "renamed",
                  "setup": [ \(create),
                             { "name": "change", "request": { "method": "PATCH", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" },
                                                              "query": { "session": "${capture:session}" }, "headers": { "X-Session": "${capture:session}" },
                                                              "body": { "name": "lamp", "session": "${capture:session}" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200, "values": { "/name": "lamp" } } },
                { "name": "change-refused",
                  "setup": [ \(create),
                             { "name": "change", "request": { "method": "PATCH", "path": "/broken/{id}", "pathParams": { "id": "${capture:itemId}" },
                                                              "query": { "session": "${capture:session}" } } },
                             { "name": "never", "request": { "method": "GET", "path": "/items/{id}", "pathParams": { "id": "${capture:itemId}" } } } ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200 } },
                { "name": "read",
                  "setup": [ \(create) ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200 } }
              ]
            }
            """,
        "gone.json": """
            {
              "id": "gone",
              "request": { "method": "GET", "path": "/gone/{id}" },
              "cases": [
                { "name": "lost",
                  "setup": [ \(create) ],
                  "request": { "pathParams": { "id": "${capture:itemId}" } },
                  "response": { "status": 200 } }
              ]
            }
            """,
    ]

    /// Makes items and gives each the secret as its session; never stores a change.
    final class Store: Sendable {
        let next = Locked(0)

        func route(_ method: String, _ target: String, _ body: [UInt8]) -> LoopbackHTTPServer.Behavior {
            let path = target.split(separator: "?").first.map(String.init) ?? target
            let parts = path.split(separator: "/").map(String.init)
            switch (method, parts.first, parts.count) {
            case ("POST", "items", 1):
                let id = next.withLock { value in
                    value += 1
                    return value
                }
                return .respond(
                    status: 201, headers: [("X-Session", ReproductionChainTests.token), ("Content-Type", "application/json")],
                    body: Array(#"{"id": \#(id), "name": "desk"}"#.utf8))
            case ("PATCH", "items", 2):
                return .json(status: 200, "{}")
            case ("GET", "items", 2):
                return .json(status: 200, #"{"id": \#(parts[1]), "name": "desk"}"#)
            case ("PATCH", "broken", 2):
                return .json(status: 500, #"{"error": "down"}"#)
            case ("GET", "gone", 2):
                return .resetMidBody(declaredLength: 100, sent: Array("{".utf8))
            default:
                return .json(status: 404, "{}")
            }
        }
    }

    static func run() async throws -> (report: VerifyReport, baseURL: String) {
        let store = Store()
        let server = try LoopbackHTTPServer(routeWithBody: store.route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        options.environment = ["TOKEN": token]
        let contracts = Fixtures.load(contracts)
        #expect(contracts.diagnostics.isEmpty, "\(contracts.diagnostics)")
        return (try await Verifier.run(contracts, options: options, reporters: []), server.baseURL)
    }

    static func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == name })
    }

    /// What every report format writes for the run, the console's plain output first.
    static func everyFormat(_ report: VerifyReport) throws -> [(String, String)] {
        var console = ""
        try ConsoleReporter(style: .plain) { console += $0 }.replay(report)
        return [
            ("console", console), ("json", JSONReport.render(report)), ("junit", JUnitReport.render(report)),
            ("markdown", MarkdownReport.render(report)), ("html", HTMLReport.render(report)),
        ]
    }

    @Test func aFailingCaseShowsItsSetupStepsFirstWithTheirCapturedValues() async throws {
        let (report, baseURL) = try await Self.run()
        let renamed = try Self.result(report, "items/renamed")
        #expect(renamed.outcome == .failed)
        #expect(renamed.findings.map(\.rule) == ["value.equals"], "\(renamed.findings.map(\.message))")
        #expect(renamed.chain.map(\.name) == ["create", "change"])

        // The captured id fills the later requests: the change's URL names the item the case read.
        let itemURL = renamed.request.url
        #expect(itemURL.hasPrefix(baseURL + "/items/") && Int(itemURL.dropFirst((baseURL + "/items/").count)) != nil, "\(itemURL)")
        let create = try #require(renamed.chain.first?.request)
        #expect(create == DisplayedRequest(
            method: "POST", url: baseURL + "/items", headers: [HTTPHeader("Authorization", "Bearer ***"), HTTPHeader("Content-Type", "application/json")],
            body: #"{"name":"desk"}"#))
        let change = try #require(renamed.chain.last?.request)
        #expect(change.method == "PATCH")
        // The session the server sent back is the secret: masked where it was captured into.
        #expect(change.url == itemURL + "?session=***")
        #expect(change.headers.first { $0.hasName("X-Session") }?.value == "***")
        #expect(change.body == #"{"name":"lamp","session":"***"}"#)

        // The console lists the chain under the findings, in order, each line a curl to paste.
        let console = try #require(try Self.everyFormat(report).first?.1)
        let details = console.split(separator: "\n").drop { !$0.hasPrefix("FAIL  items/renamed ") }.dropFirst().prefix { $0.hasPrefix("      ") }
        let renamedLines = details.map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("reproduce") }
        #expect(renamedLines == [
            "reproduce (setup 'create'): " + CurlCommand.line(for: create),
            "reproduce (setup 'change'): " + CurlCommand.line(for: change),
            "reproduce: curl -i " + itemURL,
        ], "\(console)")
        #expect(renamedLines.first?.hasPrefix("reproduce (setup 'create'): curl -i -X POST \(baseURL)/items -H 'Authorization: Bearer ***'") == true)

        // The JSON report writes each step's name, request and curl line, in order.
        let json = try JSONParser().parse(JSONReport.render(report)).value
        let cases = try #require(json.objectValue?["cases"]?.arrayValue)
        let written = try #require(cases.first { $0.objectValue?["id"] == "items/renamed" }?.objectValue?["setup"]?.arrayValue)
        #expect(written.map { $0.objectValue?["name"] } == ["create", "change"])
        #expect(written.last?.objectValue?["curl"] == .string(CurlCommand.line(for: change)))
        #expect(written.last?.objectValue?["request"]?.objectValue?["url"] == .string(itemURL + "?session=***"))
    }

    @Test func aFailedSetupStepShowsTheStepsBeforeItThenItself() async throws {
        let (report, baseURL) = try await Self.run()
        let refused = try Self.result(report, "items/change-refused")
        #expect(refused.outcome == .failed)
        #expect(refused.findings.map(\.rule) == ["setup.status"])
        // The step that failed is the deciding request, and the step after it was never sent.
        #expect(refused.chain.map(\.name) == ["create"])
        #expect(refused.request.method == "PATCH")
        #expect(refused.request.url.hasPrefix(baseURL + "/broken/") && refused.request.url.hasSuffix("?session=***"), "\(refused.request.url)")

        // No response to the case's own request: its setup is shown too.
        let lost = try Self.result(report, "gone/lost")
        #expect(lost.outcome == .error)
        #expect(lost.chain.map(\.name) == ["create"])
        #expect(lost.request.url.hasPrefix(baseURL + "/gone/"))
    }

    @Test func aPassingCaseKeepsNothing() async throws {
        let (report, _) = try await Self.run()
        let read = try Self.result(report, "items/read")
        #expect(read.outcome == .passed, "\(read.findings.map(\.message))")
        #expect(read.chain.isEmpty)
        let json = try JSONParser().parse(JSONReport.render(report)).value
        let written = json.objectValue?["cases"]?.arrayValue?.first { $0.objectValue?["id"] == "items/read" }
        #expect(written?.objectValue?["setup"] == nil)
    }

    @Test func theSecretIsInNoFormatAndTheChainSurvivesAMerge() async throws {
        let (report, _) = try await Self.run()
        // The token raw, JSON-escaped (`\/`) or percent-encoded (`%2B`, `%2F`) all hold these.
        let parts = ["s3cr", "Zq9"]
        let merged = try ShardReport.read(Array(JSONReport.render(report).utf8), file: "r.json").get()
        let again = VerifyReport(summary: try ShardMerge.merge([merged]).get().summary, results: merged.results)
        for (format, text) in try Self.everyFormat(report) + Self.everyFormat(again) {
            // Tested apart, so that a failure names the format rather than printing a whole report.
            let shown = parts.filter { text.contains($0) }
            #expect(shown.isEmpty, "\(format) shows the secret")
            let chained = text.contains("'change'") || text.contains(#""name": "change""#)
            #expect(chained, "\(format) shows no chain")
        }
        // Read back, every chain is the one the run had, so the merged reports are the run's.
        let chains = Dictionary(uniqueKeysWithValues: report.results.map { ($0.name, $0.chain) })
        for result in merged.results {
            #expect(result.chain == chains[result.name], "\(result.name)")
        }
        #expect(merged.results.contains { $0.chain.count == 2 })
        #expect(JSONReport.render(again) == JSONReport.render(report))
    }
}
