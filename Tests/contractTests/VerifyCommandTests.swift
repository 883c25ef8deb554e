import Foundation
import TestSupport
import Testing

/// `contract verify` as CI runs it: the real binary, a real server, exit codes and report files.
struct VerifyCommandTests {
    static let contract = """
        {
          "id": "health.get",
          "request": { "method": "GET", "path": "/health", "headers": { "Authorization": "Bearer ${env:HEALTH_TOKEN}" } },
          "cases": [
            { "name": "ok",
              "response": { "status": 200,
                            "schema": { "type": "object", "required": ["status"], "properties": { "status": { "const": "ok" } } } } }
          ]
        }
        """

    /// A contracts folder with the health contract (or `text` as its only file).
    func contracts(_ text: String = contract) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("health.json"), atomically: true, encoding: .utf8)
        return folder
    }

    func verify(_ arguments: [String], in folder: URL, token: String? = "t0p-secret") async throws -> ContractBinary.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["HEALTH_TOKEN"] = token
        return try await ContractBinary.run(["verify"] + arguments + ["--color", "never", folder.path], in: folder, environment: environment)
    }

    /// A cancelled CI job sends SIGTERM: the run ends by that signal and leaves no partial report.
    @Test func aStoppedRunLeavesNoPartialReport() async throws {
        let server = try LoopbackHTTPServer { _, _ in .neverAnswer }
        let folder = try contracts()
        var environment = ProcessInfo.processInfo.environment
        environment["HEALTH_TOKEN"] = "t"
        let process = try ChildProcess(
            // A request that outlasts any machine's load: the run must still be going when stopped.
            ContractBinary.url.path, ["verify", "--base-url", server.baseURL, "--timeout", "600", "--report", "json=\(folder.path)/r.json", "--color", "never", folder.path],
            environment: environment)
        func partials() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".partial") }
        }
        // Generous: on a loaded machine (a CI run beside the tests) starting the binary is slow.
        let deadline = Date().addingTimeInterval(900)
        while partials().isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(partials().count == 1, "the report is being written")
        process.signal(SIGTERM)
        #expect(process.wait() == 128 + SIGTERM, "ended by the signal")
        #expect(partials().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r.json").path))
    }

    @Test func passingExitsZero() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"status": "ok"}"#) }
        let result = try await verify(["--base-url", server.baseURL], in: contracts())
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS  health.get/ok  GET \(server.baseURL)/health -> 200 HTTP/1.1"))
        #expect(result.stdout.contains("1 case: 1 passed, 0 failed"))
    }

    @Test func driftExitsOneWithReportsAndNoSecret() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"status": "degraded", "token": "t0p-secret"}"#) }
        let folder = try contracts()
        let reports = [("json", "r.json"), ("junit", "r.xml"), ("markdown", "r.md"), ("html", "r.html")]
        let result = try await verify(["--base-url", server.baseURL] + reports.flatMap { ["--report", "\($0.0)=\(folder.path)/\($0.1)"] }, in: folder)
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("FAIL  health.get/ok"))
        #expect(result.stdout.contains("- body: /status: expected \"ok\", found string 'degraded'"))
        #expect(result.stdout.contains("reproduce: curl -i \(server.baseURL)/health -H 'Authorization: Bearer ***'"))
        var outputs = [result.stdout, result.stderr]
        for (_, file) in reports {
            outputs.append(try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
        }
        #expect(outputs[2].contains(#""outcome": "failed""#))
        for output in outputs { #expect(!output.contains("t0p-secret")) }
    }

    @Test func unreachableExitsThree() async throws {
        let port = try LoopbackHTTPServer.closedPort()
        let result = try await verify(["--base-url", "http://127.0.0.1:\(port)"], in: contracts())
        #expect(result.exitCode == 3)
        #expect(result.stdout.contains("ERROR health.get/ok"))
        #expect(result.stdout.contains("connection refused"))
    }

    @Test func brokenContractsExitTwoBeforeSendingAnything() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"status": "ok"}"#) }
        let result = try await verify(["--base-url", server.baseURL], in: contracts(#"{ "id": "health.get", "request": { "method": "GET" } "#))
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("health.json:1:"))
        #expect(result.stderr.contains("nothing was sent"))
        #expect(server.requests.isEmpty)
    }

    @Test func aMissingSecretExitsTwoBeforeSendingAnything() async throws {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, #"{"status": "ok"}"#) }
        let result = try await verify(["--base-url", server.baseURL], in: contracts(), token: nil)
        #expect(result.exitCode == 2)
        // Compiler-style, where the variable is first written, so editors and CI annotate it.
        #expect(result.stderr.contains(
            "/health.json:3:82: error: environment variable HEALTH_TOKEN is not set; it is used by health.get/ok [/request/headers/Authorization]\n"),
            "\(result.stderr)")
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [
        (["--base-url", "ftp://example.com"], "--base-url must be an http:// or https:// URL"),
        (["--base-url", "http://127.0.0.1:1", "--shard", "3/2"], "--shard must be 'i/n'"),
        (["--base-url", "http://127.0.0.1:1", "--report", "xml=r.xml"], "--report must be 'json=PATH'"),
        (["--base-url", "http://127.0.0.1:1", "--report", "json=/nonexistent/folder/r.json"], "does not exist"),
        (["--base-url", "http://127.0.0.1:1", "--report", "json=/tmp/r.out", "--report", "junit=/tmp/./r.out"], "is given more than once"),
        (["--base-url", "http://127.0.0.1:1", "--header", "no colon"], "--header must be 'Name: value'"),
        (["--base-url", "http://127.0.0.1:1", "--concurrency", "0"], "--concurrency must be at least 1, found 0"),
        (["--base-url", "http://127.0.0.1:1", "--cacert", "/nonexistent/ca.pem"], "--cacert '/nonexistent/ca.pem' is not a readable file"),
        (["--base-url", "http://127.0.0.1:1", "--id", "nothing.*"], "error: no case matches the selection (--id, --tag)\nnothing was sent"),
    ])
    func badArgumentsExitTwo(_ arguments: [String], _ message: String) async throws {
        let result = try await verify(arguments, in: contracts())
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func helpDocumentsTheExitCodes() async throws {
        let result = try await ContractBinary.run(["verify", "--help"], in: FileManager.default.temporaryDirectory)
        #expect(result.exitCode == 0)
        for line in ["0  every case passed", "1  at least one case drifted", "2  invalid contracts, arguments or baseline", "3  no request reached a server"] {
            #expect(result.stdout.contains(line))
        }
    }
}
