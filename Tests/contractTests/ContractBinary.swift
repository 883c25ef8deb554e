import Foundation
import TestSupport

/// The `contract` executable built beside the test bundle.
enum ContractBinary {
    struct Result {
        var exitCode: Int32
        var stdout: String
        var stderr: String
    }

    static var url: URL {
        // Another build of the binary, to show that a new test fails on the code before a fix.
        if let other = ProcessInfo.processInfo.environment["CONTRACT_BINARY"] { return URL(fileURLWithPath: other) }
        // SwiftPM puts products and the test bundle in the same folder (.build/debug or .build/release).
        let buildFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = buildFolder.appendingPathComponent("contract")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return buildFolder.deletingLastPathComponent().appendingPathComponent("contract")
    }

    /// Runs the binary on a thread of its own: tests run on the cooperative pool, one thread per
    /// core, and a test that blocked one while a child process ran starved the async tests beside
    /// it (an HTTP timeout test then measured the wait for a thread).
    static func run(_ arguments: [String], in directory: URL, environment: [String: String]? = nil) async throws -> Result {
        try await onOwnThread { try runBlocking(arguments, in: directory, environment: environment) }
    }

    /// The same, blocking the calling thread: for code already on a thread of its own.
    static func runBlocking(_ arguments: [String], in directory: URL, environment: [String: String]? = nil) throws -> Result {
        // Not Foundation.Process, which crashes now and then on Linux (see ChildProcess).
        let (status, out, err) = try ChildProcess.run(url.path, arguments, in: directory.path, environment: environment)
        return Result(exitCode: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
