import ContractHTTP
import ContractJSON
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// A hostile server under test hands out links meant to carry the run's credentials elsewhere:
/// a second loopback server stands for "elsewhere" and must receive nothing, however the link is
/// written, whichever request follows it (a setup step, the case's own, a teardown step), and no
/// report may show a credential.
struct FollowedLinkAttackTests {
    static let key = "k3y-Secr3t-9931"
    static let password = "pw-Secr3t-7741"

    /// Answers `/start` with the link (in the body's `next`), anything else with `{}`.
    final class Hostile: Sendable {
        let link: Locked<String>

        init(link: String) {
            self.link = Locked(link)
        }

        func route(_ request: LoopbackHTTPServer.ReceivedRequest) -> LoopbackHTTPServer.Behavior {
            guard request.target.hasPrefix("/start") else { return .json(status: 200, "{}") }
            let link = self.link.withLock { $0 }
            return .json(status: 200, #"{"next": \#(CanonicalJSONWriter(style: .compact).string(.string(link)))}"#)
        }
    }

    static let contracts: [String: String] = [
        "links.json": """
            {
              "id": "links",
              "request": { "method": "GET", "path": "/items" },
              "cases": [
                { "name": "own-request",
                  "setup": [ { "name": "start", "request": { "method": "GET", "path": "/start", "headers": { "X-Api-Key": "${env:KEY}" } },
                               "capture": { "next": "/next" } } ],
                  "request": { "url": "${capture:next}", "query": { "q": "1" }, "headers": { "X-Api-Key": "${env:KEY}" } },
                  "response": { "status": 200 },
                  "teardown": [ { "name": "cleanup", "request": { "method": "DELETE", "url": "${capture:next}", "headers": { "X-Api-Key": "${env:KEY}" } } } ] },
                { "name": "setup-step",
                  "setup": [ { "name": "start", "request": { "method": "GET", "path": "/start" }, "capture": { "next": "/next" } },
                             { "name": "page", "request": { "method": "GET", "url": "${capture:next}", "headers": { "X-Api-Key": "${env:KEY}" } } } ],
                  "response": { "status": 200 } }
              ]
            }
            """
    ]

    /// Runs the contracts against a server that gives `link` (`{B}` its own authority, `{E}`
    /// the other server's), with the key in a header of every request and the password in the
    /// base URL; the other server must receive nothing.
    static func run(
        _ link: String, contracts: [String: String] = contracts, key: String = key
    ) async throws -> (report: VerifyReport, hostile: LoopbackHTTPServer, link: String) {
        let evil = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        defer { evil.stop() }
        let store = Hostile(link: "")
        let server = try LoopbackHTTPServer(routeRequest: store.route)
        defer { server.stop() }
        let written = link.replacing("{B}", with: "127.0.0.1:\(server.port)").replacing("{E}", with: "127.0.0.1:\(evil.port)")
            .replacing("{EP}", with: "\(evil.port)").replacing("{BP}", with: "\(server.port)")
        store.link.withLock { $0 = written }
        var options = VerifyOptions(baseURL: "http://user:\(password)@127.0.0.1:\(server.port)")
        options.http.timeout = .seconds(600)
        options.environment = ["KEY": key]
        options.extraHeaders = [HeaderField(name: "X-Extra", value: try TemplateString(parsing: "${env:KEY}"))]
        let contracts = Fixtures.load(contracts)
        #expect(contracts.diagnostics.isEmpty, "\(contracts.diagnostics.map(\.rendered))")
        let report = try await Verifier.run(contracts, options: options, reporters: [])
        #expect(evil.requests.isEmpty, "\(written): \(evil.requests.map(\.target))")
        return (report, server, written)
    }

    @Test(arguments: [
        "http://{E}/x", "HTTP://{E}/x", "//{E}/x", "///{E}/x", "http://{E}", "http://{E}?x", "http://{B}\\@{E}/x", "http://{B}#@{E}/x",
        "http://{B}@{E}/x", "http://user@{E}/x", "http:{E}/x", "http:/{E}/x", "http:\\\\{E}/x", "/\\{E}/x", "\\\\{E}/x", "\\/{E}/x",
        "http://{B}%2F%2F{E}/x", "http://{B}\t@{E}/x", "http://{B}\r\n@{E}/x", "http://{B}\u{0}@{E}/x", " http://{E}/x",
        "http://127.0.0.1:{EP}:{BP}/x", "http://127.0.0.1:{BP}:{EP}/x", "http://[::ffff:127.0.0.1]:{EP}/x", "http://localhost:{EP}/x",
        "http://127.0.0.1.:{EP}/x", "http://2130706433:{EP}/x", "http://0x7f.1:{EP}/x", "http://127.1:{EP}/x",
        "http://127.0.0.1:{BP}/..//{E}/x", "http://127.0.0.1:{BP}?@{E}/x", "http://127.0.0.1:{BP}/%0d%0aHost:%20{E}",
        "http://127.0.0.1\u{FF0E}0.0.1:{EP}/x", "http://127.0.0.1:{EP}\u{FF0F}x", "https://{B}/x", "ftp://{B}/x", "",
    ])
    func noLinkReachesAnotherServer(_ link: String) async throws {
        let (report, hostile, written) = try await Self.run(link)
        // What reached the server under test was sent to it, with a path of its own.
        for request in hostile.requests {
            #expect(request.target.hasPrefix("/"), "\(written): \(request.target)")
        }
        for result in report.results where result.outcome != .passed {
            for finding in result.findings + result.teardown {
                #expect(["url", "setup.url", "teardown.url", "status"].contains(finding.rule), "\(written): \(finding.message)")
            }
        }
        for (format, text) in try ReproductionChainTests.everyFormat(report) {
            #expect(!text.contains("Secr3t"), "\(written): \(format) shows a credential")
        }
    }

    /// A link of megabytes (a body's value can be 32 MiB) is not followed, and what the reports
    /// say of it stays short: the JSON report reads back (`contract merge` takes no text over
    /// 1 MiB) and no message quotes the whole link.
    @Test(arguments: ["http://{E}/", "/", "http://{B}/", "?q="])
    func aVeryLongLinkIsNotFollowedAndTheReportReadsBack(_ start: String) async throws {
        let (report, hostile, _) = try await Self.run(start + String(repeating: "a", count: 2_000_000))
        #expect(hostile.requests.map(\.target).allSatisfy { $0 == "/start" }, "\(hostile.requests.map { $0.target.prefix(40) })")
        for result in report.results {
            #expect(result.outcome == .failed)
            #expect(result.attempts == 0)
            for finding in result.findings + result.teardown {
                #expect(finding.message.count < 1_000, "\(finding.message.prefix(200))")
            }
            #expect(result.request.url.utf8.count <= FollowedLink.maxBytes + Secrets.cutMark.utf8.count, "\(result.request.url.utf8.count)")
        }
        let read = ShardReport.read(Array(JSONReport.render(report).utf8), file: "r.json")
        if case .failure(let problems) = read { Issue.record("the report does not read back: \(problems)") }
    }

    /// A `url` with a secret in it, after the link: a secret that URLs write another way (a
    /// space, a quote, a non-ASCII letter) is masked in the refusal, which quotes the link
    /// percent-encoded, and in the request shown, whether the link is followed or not.
    @Test(arguments: ["http://{E}/x", "/x", "?page=2"])
    func aSecretInTheURLIsShownInNoForm(_ link: String) async throws {
        let key = "k3y Secr3t\"\u{E9}|{9931}"
        let contracts = [
            "secret.json": """
                {
                  "id": "secret",
                  "request": { "method": "GET", "path": "/items" },
                  "cases": [
                    { "name": "token-in-url",
                      "setup": [ { "name": "start", "request": { "method": "GET", "path": "/start" }, "capture": { "next": "/next" } } ],
                      "request": { "url": "${capture:next}${capture:next}/${env:KEY}?token=${env:KEY}" },
                      "response": { "status": 201 } },
                    { "name": "token-in-query",
                      "setup": [ { "name": "start", "request": { "method": "GET", "path": "/start" }, "capture": { "next": "/next" } } ],
                      "request": { "url": "${capture:next}", "query": { "token": "${env:KEY}" } },
                      "response": { "status": 201 } }
                  ]
                }
                """
        ]
        let (report, _, written) = try await Self.run(link, contracts: contracts, key: key)
        #expect(report.results.count == 2)
        for result in report.results {
            #expect(result.outcome == .failed, "\(written): \(result.name)")
        }
        for (format, text) in try ReproductionChainTests.everyFormat(report) {
            #expect(!text.contains("Secr3t"), "\(written): \(format) shows the secret")
        }
    }
}
