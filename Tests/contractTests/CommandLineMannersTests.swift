import Foundation
import TestSupport
import Testing

/// What a person at a terminal and a CI script expect of any command-line tool: colours only where
/// wanted, a typo in a command named as one, and a malformed argument refused as an argument.
struct CommandLineMannersTests {
    static let contract = """
        { "id": "health.get", "request": { "method": "GET", "path": "/health" },
          "cases": [ { "name": "ok", "response": { "status": 200 } } ] }
        """

    func contracts() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manners-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.contract.write(to: folder.appendingPathComponent("health.json"), atomically: true, encoding: .utf8)
        return folder
    }

    /// `contract verify --color auto` with its standard output on a terminal, in an environment
    /// of this process's without NO_COLOR and TERM, plus `environment`.
    func verifyOnATerminal(_ environment: [String: String]) async throws -> (status: Int32, output: String) {
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        let folder = try contracts()
        defer { try? FileManager.default.removeItem(at: folder) }
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["NO_COLOR"] = nil
        childEnvironment["TERM"] = nil
        childEnvironment.merge(environment) { _, given in given }
        let terminal = try PseudoTerminal()
        let child = try ChildProcess(
            ContractBinary.url.path, ["verify", "--base-url", server.baseURL, "--color", "auto", folder.path], environment: childEnvironment,
            stdout: .file(terminal.devicePath), stderr: .discard)
        // The output of one case is far less than the terminal holds, so the child never waits
        // for it to be read.
        let status = try await onOwnThread { child.wait() }
        return (status, terminal.output())
    }

    @Test func aTerminalGetsColours() async throws {
        let (status, output) = try await verifyOnATerminal(["TERM": "xterm-256color"])
        #expect(status == 0)
        #expect(output.contains("\u{1B}[32m"), "\(output.debugDescription)")
    }

    @Test(arguments: [["NO_COLOR": "1", "TERM": "xterm-256color"], ["TERM": "dumb"]])
    func noColorAndADumbTerminalGetPlainText(_ environment: [String: String]) async throws {
        let (status, output) = try await verifyOnATerminal(environment)
        #expect(status == 0)
        #expect(output.contains("PASS  health.get/ok"), "\(output.debugDescription)")
        #expect(!output.contains("\u{1B}"), "no colour and no progress line: \(output.debugDescription)")
    }

    @Test(arguments: [
        (["verfy", "--base-url", "http://127.0.0.1:1"], "error: unknown command 'verfy'; did you mean 'verify'?"),
        (["fixture", "--out", "out"], "error: unknown command 'fixture'; did you mean 'fixtures'?"),
        (["import", "opnapi", "api.yaml", "--out", "out"], "error: unknown command 'import opnapi'; did you mean 'import openapi'?"),
        (["deploy"], "error: unknown command 'deploy'"),
    ])
    func aMisspeltCommandIsNamed(_ arguments: [String], _ message: String) async throws {
        let result = try await ContractBinary.run(arguments, in: FileManager.default.temporaryDirectory)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Unknown option"))
    }

    @Test func helpAndVersionStillWork() async throws {
        let help = try await ContractBinary.run(["help", "verify"], in: FileManager.default.temporaryDirectory)
        #expect(help.exitCode == 0 && help.stdout.contains("--base-url"), "\(help.stderr)")
        let version = try await ContractBinary.run(["--version"], in: FileManager.default.temporaryDirectory)
        #expect(version.exitCode == 0 && version.stdout.hasPrefix("0."), "\(version.stderr)")
    }

    /// A malformed argument says where to read about the command it was given to.
    @Test(arguments: [
        (["verify", "--base-url", "http://127.0.0.1:1", "--concurrency", "many"], "Run 'contract help verify' for its options."),
        (["merge"], "Run 'contract help merge' for its options."),
        (["--frobnicate"], "Run 'contract help' for the commands."),
    ])
    func anArgumentErrorNamesTheHelpToRead(_ arguments: [String], _ hint: String) async throws {
        let result = try await ContractBinary.run(arguments, in: FileManager.default.temporaryDirectory)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasSuffix(hint + "\n"), "\(result.stderr)")
    }

    /// A base URL that is no URL is an argument error (2), not an unreachable server (3), and its
    /// user information is never shown.
    @Test(arguments: [
        ("http://admin:hunter2@exa mple.com", "error: --base-url 'http://***@exa mple.com' is not a URL the verifier can use: it has a space"),
        ("http://admin:hunter2@:8080/", "error: --base-url 'http://***@:8080/' is not a URL the verifier can use: it has no host"),
        ("http://admin:hunter2@example.com:65536", "error: --base-url 'http://***@example.com:65536' is not a URL the verifier can use: its port '65536'"),
        // Not an escape sequence: the test log shows each argument as it is.
        ("http://admin:hunter2@example.com\u{1}/", "error: --base-url 'http://***@example.com\\u{1}/' is not a URL the verifier can use: it has a control character"),
    ])
    func anInvalidBaseURLExitsTwo(_ url: String, _ message: String) async throws {
        let folder = try contracts()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ContractBinary.run(["verify", "--base-url", url, "--color", "never", folder.path], in: folder)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("hunter2"))
        #expect(!(result.stdout + result.stderr).contains("admin"))
    }
}
