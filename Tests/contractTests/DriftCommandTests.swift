import Foundation
import TestSupport
import Testing

/// `contract verify` as CI runs it on drift the contract's own checks would pass: a member name
/// sent twice and a `Content-Type` sent twice. The real binary, a real server, the console output
/// and exit code 1; the same server without the drift exits 0.
struct DriftCommandTests {
    static let contract = """
        {
          "id": "session.get",
          "request": { "method": "GET", "path": "/session", "headers": { "Authorization": "Bearer ${env:SESSION_TOKEN}" } },
          "cases": [
            { "name": "ok",
              "response": { "status": 200, "headers": { "Content-Type": { "pattern": "^application/json" } },
                            "schema": { "type": "object", "required": ["token", "authenticated"],
                                        "properties": { "token": { "type": "string" }, "authenticated": { "type": "boolean" } } } } }
          ]
        }
        """

    static let token = "t0p-s3cret-session"

    func verify(_ route: @escaping @Sendable (String, String) -> LoopbackHTTPServer.Behavior) async throws -> ContractBinary.Result {
        let server = try LoopbackHTTPServer(route: route)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.contract.write(to: folder.appendingPathComponent("session.json"), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["SESSION_TOKEN"] = Self.token
        return try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--color", "never", folder.path], in: folder, environment: environment)
    }

    static func body(_ text: String, contentTypes: [String] = ["application/json"]) -> LoopbackHTTPServer.Behavior {
        .respond(status: 200, headers: contentTypes.map { ("Content-Type", $0) }, body: Array(text.utf8))
    }

    @Test func withoutDriftTheRunPasses() async throws {
        let result = try await verify { _, _ in Self.body(#"{"token": "x", "authenticated": true}"#) }
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 case: 1 passed, 0 failed"))
    }

    @Test func aMemberNameSentTwiceFailsTheRun() async throws {
        let result = try await verify { _, _ in Self.body(#"{"token": "\#(Self.token)", "authenticated": true, "token": "y"}"#) }
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL  session.get/ok"))
        #expect(result.stdout.contains(
            #"- body: /token: expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), found 'token' twice: "***" at line 1, column 2, then "y" at line 1, column 56; parsers disagree on which value a client reads"#
        ), "\(result.stdout)")
        // The excerpt around the second name takes the masked secret whole.
        #expect(result.stdout.contains(#"    body: …***", "authenticated": true, "token": "y"}"#), "\(result.stdout)")
        #expect(!result.stdout.contains(Self.token) && !result.stderr.contains(Self.token))
    }

    @Test func aContentTypeSentTwiceFailsTheRun() async throws {
        let result = try await verify { _, _ in
            Self.body(#"{"token": "x", "authenticated": true}"#, contentTypes: ["application/json", "text/html"])
        }
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(
            "- header: expected one 'Content-Type' field (a single-value field, RFC 9110 §8.3), found 2 with different values: 'application/json', 'text/html'"
        ), "\(result.stdout)")
        #expect(result.stdout.contains("1 case: 0 passed, 1 failed"))
    }
}
