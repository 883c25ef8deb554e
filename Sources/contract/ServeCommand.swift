import ArgumentParser
import ContractModel
import ContractServe
import Dispatch
import Foundation

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the contracts as a mock server over HTTP, for UI tests, previews and clients in any language.",
        discussion: """
            The first line of standard output is the server's URL (with --port 0, the free port picked), so a script \
            can read it; then one line per request. Requests are routed and checked as ContractTesting's stubs route and \
            check them, and answered with the fixtures 'contract fixtures' would write. A request that breaks its \
            contract gets a 400 application/problem+json listing every violation (--lenient answers anyway); one that \
            no contract describes gets a 404 problem naming the nearest. A request picks its case with \
            'Prefer: case=NAME' (or code=404, example=NAME).

            With --usage-dir (or CONTRACT_USAGE_DIR), each request answered is recorded for 'contract coverage': \
            the contract and case, or that none matched, and the test named by the request's Contract-Test header \
            (a UI test names itself with it); no other header, no query and no body is recorded.

            The control API, under /__contract: GET /__contract (the cases), POST /__contract/use \
            {"contract","case"}, POST /__contract/inject {"contract"?, "status" | "delay" (seconds) | \
            "undecodableBody" | "dropConnection", "times"?}, DELETE /__contract/faults, \
            POST /__contract/allow-invalid-requests {"contract"?, "case"?}, GET /__contract/requests \
            (?only=unmatched|invalid), POST /__contract/reset.

            An edit to the contracts is served once the folder is still; an edit with errors keeps the last good set \
            and prints its diagnostics. SIGTERM or SIGINT closes every connection and exits 0.

            Exit codes: 0 stopped by a signal; 2 invalid contracts or arguments, the port cannot be listened on, or no usage file can be made in the usage folder.
            """
    )

    @OptionGroup var contracts: ContractsDirectory

    @Option(help: "The address to listen on (0.0.0.0 for other machines too).")
    var host = "127.0.0.1"

    @Option(help: "The port; 0 picks a free one (the first line says which).")
    var port = 8080

    @Flag(help: "Answer a request that breaks its contract with its fixture anyway (the log still says how it breaks it).")
    var lenient = false

    @Flag(help: "Answer CORS preflights and let any origin read the answers, with credentials (for browser clients).")
    var cors = false

    @Flag(name: [.customShort("q"), .long], help: "No line per request.")
    var quiet = false

    @Option(help: "The request log: text or json (one object per line).")
    var log = ServeRun.LogFormat.text

    @Option(help: "A request body over this many bytes gets a 413 problem.")
    var maxBodyBytes = 16 << 20

    @Option(help: "Seconds a connection may send nothing before it is closed.")
    var idleTimeout: Double = 60

    @Flag(help: "Do not serve edits to the contracts until restarted.")
    var noWatch = false

    @Option(
        name: .customLong("usage-dir"),
        help: ArgumentHelp(
            "Record each request answered for 'contract coverage' in a file of its own in this folder (default: CONTRACT_USAGE_DIR, if set).",
            valueName: "dir"))
    var usageDirectory: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, found \(port)") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be above 0, found \(maxBodyBytes)") }
        guard idleTimeout.isFinite, idleTimeout >= 0.001, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be a number of seconds from 0.001 to 86400, found \(idleTimeout)")
        }
    }

    func run() throws {
        var arguments = ServeRun.Arguments()
        arguments.directory = contracts.directory
        arguments.server.host = host
        arguments.server.port = port
        arguments.server.lenient = lenient
        arguments.server.cors = cors
        arguments.server.maxBodyBytes = maxBodyBytes
        arguments.server.idleTimeout = .nanoseconds(Int64(idleTimeout * 1e9))
        arguments.quiet = quiet
        arguments.log = log
        arguments.watchInterval = noWatch ? nil : .seconds(1)
        let environmentFolder = ProcessInfo.processInfo.environment[ServeRun.usageEnvironmentVariable].flatMap { $0.isEmpty ? nil : $0 }
        arguments.usageDirectory = usageDirectory ?? environmentFolder
        let output = LineOutput()
        let serving: ServeRun.Serving
        switch ServeRun.start(arguments, output: { output.write($0) }, errors: { diagnostics, consequence in
            for diagnostic in diagnostics { printError(diagnostic.rendered) }
            printError(consequence)
        }) {
        case .success(let started): serving = started
        case .failure(let stopped): return try stopped.result.exit(command: "serve")
        }
        output.write(serving.server.baseURL ?? "")
        printError(ServeRun.banner(serving, directory: contracts.directory, lenient: lenient))
        Self.stopOnSignal(serving)
        // The server's threads answer; this one waits for the signal that ends the process.
        DispatchSemaphore(value: 0).wait()
    }

    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []

    /// SIGTERM (a CI job, `docker stop`) or SIGINT (Ctrl-C): every connection closed, then exit 0.
    private static func stopOnSignal(_ serving: ServeRun.Serving) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                serving.stop()
                printError("stopped")
                Foundation.exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }
}

extension ServeRun.LogFormat: ExpressibleByArgument {}

/// Standard output a line at a time, flushed at once: a script reading the URL, or a log
/// collector, sees each line as it is written, not when a buffer fills. A reader that goes away
/// (a script that read the URL and closed the pipe) ends the log, not the server.
final class LineOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false

    init() {
        // A write to a pipe nobody reads fails with EPIPE rather than killing the process.
        signal(SIGPIPE, SIG_IGN)
    }

    func write(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            closed = true
        }
    }
}
