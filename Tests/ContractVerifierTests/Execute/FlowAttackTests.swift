import ContractHTTP
import ContractJSON
import ContractModel
import ContractSchema
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A flow attacked from both sides: a server under test that answers what a contract does not
/// expect (no header, no JSON, a huge value, its secret echoed back), and contracts written
/// imperfectly. Each case here failed or leaked before its fix.
struct FlowAttackTests {
    /// A secret with the characters a regular expression reads as syntax.
    static let token = "tok.en+abc/def=="

    static let contracts: [String: String] = [
        "attack.json": """
            {
              "id": "attack",
              "request": { "method": "GET", "path": "/r/{which}" },
              "cases": [
                { "name": "secret-in-header-pattern",
                  "request": { "pathParams": { "which": "wrongauth" } },
                  "response": { "status": 200, "headers": { "X-Auth": { "pattern": "^Bearer ${env:TOKEN}$" } } } },
                { "name": "own-capture-read-by-header",
                  "request": { "pathParams": { "which": "located" } },
                  "capture": { "location": { "header": "Location" } },
                  "response": { "status": 201, "headers": { "Content-Location": "${capture:location}" } } },
                { "name": "own-capture-missing",
                  "request": { "pathParams": { "which": "unlocated" } },
                  "capture": { "madeId": { "header": "Location", "pattern": "/items/([0-9]+)$" } },
                  "response": { "status": 201, "values": { "/id": { "pattern": "${capture:madeId}" } } } },
                { "name": "values-without-schema-not-json",
                  "request": { "pathParams": { "which": "html" } },
                  "response": { "status": 200, "values": { "/id": 1 } } },
                { "name": "values-with-schema-not-json",
                  "request": { "pathParams": { "which": "html" } },
                  "response": { "status": 200, "schema": { "type": "object" }, "values": { "/id": 1 } } },
                { "name": "differs-from-absent-header",
                  "setup": [ { "name": "first", "request": { "method": "GET", "path": "/r/tagged" }, "capture": { "etag": { "header": "ETag" } } } ],
                  "request": { "pathParams": { "which": "untagged" } },
                  "response": { "status": 200, "headers": { "ETag": { "differs": "${capture:etag}" } } } },
                { "name": "capture-from-long-text",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/r/long" },
                               "capture": { "cursor": { "body": "/next", "pattern": "cursor=([a-z0-9]+)" } } } ],
                  "request": { "pathParams": { "which": "${capture:cursor}" } },
                  "response": { "status": 200 } },
                { "name": "capture-catastrophic",
                  "setup": [ { "name": "page", "request": { "method": "GET", "path": "/r/aaa" },
                               "capture": { "run": { "body": "/text", "pattern": "^(a+)+$" } } } ],
                  "request": { "pathParams": { "which": "${capture:run}" } },
                  "response": { "status": 200 } },
                { "name": "echoed-secret-captured",
                  "setup": [ { "name": "echo", "request": { "method": "GET", "path": "/r/echo", "headers": { "Authorization": "Bearer ${env:TOKEN}" } },
                               "capture": { "echoed": { "header": "X-Auth", "pattern": "^Bearer (.+)$" } } } ],
                  "request": { "pathParams": { "which": "body" } },
                  "response": { "status": 200, "values": { "/token": "${capture:echoed}", "/other": { "pattern": "^${capture:echoed}$" },
                                                           "/list": { "someElement": { "": "${capture:echoed}" } } } } }
              ]
            }
            """
    ]

    /// A 3 MB text whose cursor comes last: beyond a million backtracking steps for a pattern
    /// that tries every start.
    static let longNext = String(repeating: "x", count: 3_000_000) + "&cursor=c0ffee42"

    static func route(_ method: String, _ target: String, _ body: [UInt8]) -> LoopbackHTTPServer.Behavior {
        switch target {
        case "/r/echo":
            return .respond(status: 200, headers: [("X-Auth", "Bearer \(token)"), ("Content-Type", "application/json")], body: Array("{}".utf8))
        case "/r/wrongauth":
            return .respond(status: 200, headers: [("X-Auth", "Bearer other"), ("Content-Type", "application/json")], body: Array("{}".utf8))
        case "/r/located":
            return .respond(status: 201, headers: [("Location", "/items/5"), ("Content-Location", "/items/5"), ("Content-Type", "application/json")], body: Array(#"{"id": 5}"#.utf8))
        case "/r/unlocated":
            return .json(status: 201, #"{"id": 5}"#)
        case "/r/html":
            return .respond(status: 200, headers: [("Content-Type", "text/html")], body: Array("<html>maintenance</html>".utf8))
        case "/r/tagged":
            return .respond(status: 200, headers: [("ETag", "\"v1\""), ("Content-Type", "application/json")], body: Array("{}".utf8))
        case "/r/untagged":
            return .json(status: 200, "{}")
        case "/r/long":
            return .json(status: 200, #"{"next": "\#(longNext)"}"#)
        case "/r/c0ffee42":
            return .json(status: 200, "{}")
        case "/r/aaa":
            return .json(status: 200, #"{"text": "\#(String(repeating: "a", count: 40))!"}"#)
        case "/r/body":
            return .json(status: 200, #"{"token": "wrong", "other": "wrong", "list": ["wrong"]}"#)
        default:
            return .json(status: 404, "{}")
        }
    }

    static func run() async throws -> VerifyReport {
        let server = try LoopbackHTTPServer(routeWithBody: route)
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.http.timeout = .seconds(600)
        options.environment = ["TOKEN": token]
        return try await Verifier.run(Fixtures.load(contracts), options: options, reporters: [])
    }

    static func result(_ report: VerifyReport, _ name: String) throws -> CaseResult {
        try #require(report.results.first { $0.name == "attack/\(name)" })
    }

    /// Every text of a result that an output shows.
    static func shownTexts(_ result: CaseResult) -> [String] {
        (result.findings + result.teardown).flatMap { [$0.message, $0.excerpt ?? "", $0.pointer ?? "", $0.subject ?? ""] }
    }

    @Test func flowAttacks() async throws {
        let report = try await Self.run()

        // A secret in a header pattern is inserted escaped (`tok\.en\+abc\/def==`): a message
        // must show neither that form nor the raw one.
        let secretPattern = try Self.result(report, "secret-in-header-pattern")
        #expect(secretPattern.findings.map(\.message) == ["expected header 'X-Auth' to match '^Bearer ${env:TOKEN}$', found 'Bearer other'"])

        let headerRead = try Self.result(report, "own-capture-read-by-header")
        #expect(headerRead.outcome == .passed, "\(headerRead.findings.map(\.message))")

        let missing = try Self.result(report, "own-capture-missing")
        #expect(missing.outcome == .failed)
        #expect(missing.findings.map(\.rule).contains("capture"), "\(missing.findings.map(\.rule))")

        let notJSON = try Self.result(report, "values-without-schema-not-json")
        #expect(notJSON.outcome == .failed)
        #expect(notJSON.findings.map(\.rule) == ["value.json"], "\(notJSON.findings.map(\.rule))")
        let notJSONWithSchema = try Self.result(report, "values-with-schema-not-json")
        #expect(notJSONWithSchema.findings.map(\.rule) == ["content-type.json", "body.json"], "\(notJSONWithSchema.findings.map(\.rule))")

        let differs = try Self.result(report, "differs-from-absent-header")
        #expect(differs.outcome == .failed)
        #expect(differs.findings.map(\.rule) == ["header.differs"])

        let long = try Self.result(report, "capture-from-long-text")
        #expect(long.outcome == .passed, "\(long.findings.map(\.message))")

        let catastrophic = try Self.result(report, "capture-catastrophic")
        #expect(catastrophic.outcome == .failed)
        #expect(catastrophic.findings.first?.message.contains("gave up") == true, "\(catastrophic.findings.map(\.message))")

        let echoed = try Self.result(report, "echoed-secret-captured")
        #expect(echoed.outcome == .failed)
        #expect(echoed.findings.count == 3)
        for result in report.results {
            for text in Self.shownTexts(result) {
                #expect(!text.contains("tok.en") && !text.contains("tok\\.en"), "\(result.name): \(text)")
                #expect(!text.contains("abc"), "\(result.name): \(text)")
            }
        }
    }

    /// A value a server gave, or the environment holds, is filled into a header of a later
    /// request: one with a line break would end that header and start others of the server's
    /// choosing (libcurl sends a field as given). Such a request is not sent, and the case says
    /// which header and which placeholders, never the value.
    @Test func aFilledInHeaderWithALineBreakIsNotSent() async throws {
        let contract = """
            {
              "id": "inject",
              "request": { "method": "GET", "path": "/items" },
              "cases": [
                { "name": "captured",
                  "setup": [ { "name": "token", "request": { "method": "GET", "path": "/token" }, "capture": { "token": { "body": "/token" } } } ],
                  "request": { "headers": { "X-Token": "t=${capture:token}" } },
                  "response": { "status": 200 } },
                { "name": "from-the-environment",
                  "request": { "headers": { "X-Env": "${env:EVIL}" } },
                  "response": { "status": 200 } },
                { "name": "clean", "response": { "status": 200 } }
              ]
            }
            """
        let server = try LoopbackHTTPServer(routeRequest: { request in
            request.target == "/token" ? .json(status: 200, #"{"token": "abc\r\nX-Injected: yes"}"#) : .json(status: 200, "{}")
        })
        defer { server.stop() }
        var options = VerifyOptions(baseURL: server.baseURL)
        options.environment = ["EVIL": "e\r\nX-Env-Injected: yes"]
        let report = try await Verifier.run(Fixtures.load(["inject.json": contract]), options: options, reporters: [])
        #expect(server.requests.map(\.target).sorted() == ["/items", "/token"], "the setup step and the clean case only")
        for name in ["captured", "from-the-environment"] {
            let result = try #require(report.results.first { $0.name == "inject/\(name)" })
            #expect(result.outcome == .failed)
            #expect(result.findings.map(\.rule) == ["request-header"], "\(name): \(result.findings.map(\.rule))")
            #expect(result.findings.first?.message.contains("would hold a line break once") == true, "\(result.findings.map(\.message))")
        }
        #expect(report.results.first { $0.name == "inject/captured" }?.findings.first?.message.contains("header 'X-Token' would hold a line break once ${capture:token} is filled in") == true)
        #expect(report.results.first { $0.name == "inject/clean" }?.outcome == .passed)
        // Shown with its URL, as a sent request is, and reproducible from it.
        #expect(report.results.first { $0.name == "inject/from-the-environment" }?.request.url == server.baseURL + "/items")

        // A header that `--header` replaces is never sent, so never refused.
        options.extraHeaders = [HeaderField(name: "x-env", value: try TemplateString(parsing: "fine"))]
        let replaced = try await Verifier.run(Fixtures.load(["inject.json": contract]), options: options, reporters: [])
        #expect(replaced.results.first { $0.name == "inject/from-the-environment" }?.outcome == .passed)

        // The same value through `--header`: no request at all, the setup step's neither.
        options.extraHeaders = [HeaderField(name: "X-Extra", value: try TemplateString(parsing: "${env:EVIL}"))]
        let sent = server.requests.count
        let withHeader = try await Verifier.run(Fixtures.load(["inject.json": contract]), options: options, reporters: [])
        #expect(server.requests.count == sent)
        #expect(withHeader.results.first { $0.name == "inject/captured" }?.findings.map(\.rule) == ["setup.request-header"])
        for request in server.requests {
            #expect(!request.headers.contains { $0.0.lowercased().hasSuffix("injected") }, "\(request.headers)")
        }
        for result in report.results + withHeader.results {
            for text in Self.shownTexts(result) { #expect(!text.contains("Injected"), "\(result.name): \(text)") }
        }
    }
}
