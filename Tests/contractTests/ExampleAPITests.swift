import Foundation
import TestSupport
import Testing

/// The example API (examples/MarketAPI) against the project's own contracts, through the real
/// binaries: it passes honestly and fails precisely when it drifts. The API is built when its
/// binary is missing (the README's main command builds it too).
@Suite(.serialized)
struct ExampleAPITests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examplePackage = packageRoot.appendingPathComponent("examples/MarketAPI")

    static func serverBinary() throws -> URL {
        let binary = examplePackage.appendingPathComponent(".build/debug/MarketAPI")
        if !FileManager.default.isExecutableFile(atPath: binary.path) {
            let build = try ChildProcess("/usr/bin/env", ["swift", "build", "--package-path", examplePackage.path], stdout: .capture, stderr: .capture)
            let (_, errors) = build.collect()
            try #require(build.wait() == 0, "building examples/MarketAPI failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return binary
    }

    /// A running example API; stopped when released.
    final class RunningServer: @unchecked Sendable {
        let process: ChildProcess
        let baseURL: String

        init(_ arguments: [String]) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["MARKET_TOKEN"] = "example-token"
            process = try ChildProcess(try ExampleAPITests.serverBinary().path, ["--port", "0"] + arguments, environment: environment, stdout: .capture)
            // The first line names the port it took.
            let text = process.readFirstLine()
            guard let range = text.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
                process.signal(SIGTERM)
                process.wait()
                throw ServerStartError(output: text)
            }
            baseURL = String(text[range])
        }

        /// Started on a thread of its own: building the server and waiting for its port would
        /// otherwise hold one of the cooperative pool's threads.
        static func started(_ arguments: [String]) async throws -> RunningServer {
            try await onOwnThread { try RunningServer(arguments) }
        }

        deinit {
            process.signal(SIGTERM)
            process.wait()
        }
    }

    struct ServerStartError: Error {
        let output: String
    }

    func verify(_ server: RunningServer, _ extra: [String] = []) async throws -> ContractBinary.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["MARKET_TOKEN"] = "example-token"
        return try await ContractBinary.run(
            ["verify", "--base-url", server.baseURL, "--color", "never"] + extra + ["contracts"], in: Self.packageRoot, environment: environment)
    }

    @Test func theExampleAPIKeepsItsContracts() async throws {
        let server = try await RunningServer.started([])
        let result = try await verify(server)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("17 cases: 17 passed, 0 failed"))
    }

    @Test func everyDriftIsCaughtAndExplained() async throws {
        let server = try await RunningServer.started(["--drift"])
        let result = try await verify(server)
        #expect(result.exitCode == 1)
        let expected = [
            // A renamed field.
            "- body: /: unexpected property 'created_at', did you mean 'createdAt'?",
            // A number sent as a string.
            "- body: /price: expected number, found string '1.50' [keyword 'type' at contracts/schemas/product.json#/$defs/Price/type]",
            // A missing header.
            "- header: expected header 'Location' to match '^/api/products/[0-9]+$', found none",
            // A changed status.
            "- status: expected status 204, found 200",
            // A price stored rounded, which only reading back what was sent shows.
            #"- body: expected /price to equal 12.75, found "13.00""#,
            // A delete that keeps the product, which only a read after it shows.
            "FAIL  products.get/read-after-delete",
            "- status: expected status 404, found 200",
            // An update that resets the currency it was not sent, which only a flow that made the
            // product knows.
            #"- body: expected /currency to equal "KRW", found "USD""#,
            // An update that leaves updatedAt where it was.
            "- body: expected /updatedAt to be after the captured 'updatedAtBefore'",
            // An update answered but not stored, which only a read after it shows.
            "FAIL  products.get/read-after-update",
            "- body: expected /name to equal 'Reading lamp-",
        ]
        for line in expected { #expect(result.stdout.contains(line), "missing: \(line)") }
        #expect(result.stdout.contains("17 cases: 9 passed, 8 failed"))
        #expect(!result.stdout.contains("example-token"))
    }

    /// The example API's OpenAPI document imports into contracts the API passes, and that catch
    /// its drift.
    @Test func itsOpenAPIDocumentImportsIntoWorkingContracts() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("imported-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let imported = try await ContractBinary.run(["import", "openapi", "examples/MarketAPI/openapi.yaml", "--out", out.path], in: Self.packageRoot)
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("6 contracts with 14 cases"), "\(imported.stdout)")
        #expect(imported.stdout.contains("MARKET_TOKEN: a bearer access token"))
        var environment = ProcessInfo.processInfo.environment
        environment["MARKET_TOKEN"] = "example-token"
        func verify(_ server: RunningServer) async throws -> ContractBinary.Result {
            try await ContractBinary.run(["verify", "--base-url", server.baseURL, "--color", "never", out.path], in: Self.packageRoot, environment: environment)
        }
        let passing = try await verify(RunningServer.started([]))
        #expect(passing.exitCode == 0, "\(passing.stdout)")
        #expect(passing.stdout.contains("14 cases: 14 passed, 0 failed"))
        let drifting = try await verify(RunningServer.started(["--drift"]))
        #expect(drifting.exitCode == 1)
        for line in [
            "FAIL  products.get/found", "FAIL  products.create/created", "FAIL  products.list/first-page", "FAIL  products.update/updated",
            "- body: /: unexpected property 'created_at', did you mean 'createdAt'?", "- header: expected header 'Location', found none",
        ] {
            #expect(drifting.stdout.contains(line), "missing: \(line)")
        }
    }
}
