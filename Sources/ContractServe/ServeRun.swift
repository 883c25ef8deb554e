import ContractJSON
import ContractMockServer
import ContractModel
import ContractRequests
import Foundation
import NIOConcurrencyHelpers

/// `contract serve` as a library: load the contracts into fixtures, serve them, log each
/// request, and serve the new set when a contract changes. The executable declares the options,
/// prints the URL, and stops on a signal.
public enum ServeRun {
    public enum LogFormat: String, Sendable, CaseIterable {
        case text
        case json
    }

    public struct Arguments: Sendable {
        public var directory = "."
        public var server = MockServer.Options()
        /// No line per request (the URL, reloads and diagnostics are still printed).
        public var quiet = false
        public var log = LogFormat.text
        /// How often the folder is looked at for edits; nil: never.
        public var watchInterval: Duration? = .seconds(1)
        /// The folder the requests answered are recorded in for `contract coverage` (a file of
        /// its own per run, `usage-<pid>-<random>.jsonl`); nil: not recorded. The command sets it
        /// from `--usage-dir`, else from ``usageEnvironmentVariable``.
        public var usageDirectory: String?

        public init() {}
    }

    /// `CONTRACT_USAGE_DIR`: the folder the stubs and in-process mock servers of a test process
    /// record usage in, which `contract serve` honours too.
    public static let usageEnvironmentVariable = UsageRecorder.environmentVariable

    /// A running `contract serve`: stop it to close every connection.
    public final class Serving: Sendable {
        public let server: MockServer
        private let watcher: NIOLockedValueBox<TreeWatcher?>

        init(server: MockServer, watcher: TreeWatcher?) {
            self.server = server
            self.watcher = NIOLockedValueBox(watcher)
        }

        public func stop() {
            watcher.withLockedValue {
                $0?.stop()
                $0 = nil
            }
            server.stop()
        }
    }

    /// Loads, starts serving, and returns; `output` gets the log lines (and the reload notes),
    /// `errors` the diagnostics of an edit that broke the contracts.
    /// - Returns: the serving server, or the result to exit with (invalid contracts, a port
    ///   that cannot be listened on: exit 2).
    public static func start(
        _ arguments: Arguments, output: @escaping @Sendable (String) -> Void, errors: @escaping @Sendable ([Diagnostic], String) -> Void
    ) -> Result<Serving, Stopped> {
        let loaded: ServedContracts.Loaded
        do {
            loaded = try ServedContracts.load(directory: arguments.directory)
        } catch {
            return .failure(Stopped(.invalidContracts(error, directory: arguments.directory, consequence: "nothing served")))
        }
        // A folder named and not writable stops the command, as a port it cannot listen on does:
        // a run asked to record that records nothing would leave coverage silently empty.
        var usage: UsageRecorder? = nil
        if let folder = arguments.usageDirectory {
            do {
                usage = try UsageRecorder.create(folder: folder, recorder: "contract serve")
            } catch {
                return .failure(Stopped(.stopped(DiagnosticsError(argument: error.description), consequence: "nothing served")))
            }
        }
        let log = RequestLog(format: arguments.log, lenient: arguments.server.lenient)
        let onRequest: (@Sendable (MockServer.Received) -> Void)? = arguments.quiet ? nil : { @Sendable received in output(log.line(for: received)) }
        let server = MockServer(fixtures: loaded.fixtures, options: arguments.server, onRequest: onRequest, usage: usage)
        do {
            try server.start()
        } catch {
            return .failure(Stopped(.stopped(DiagnosticsError(argument: error.description), consequence: "nothing served")))
        }
        var watcher: TreeWatcher? = nil
        if let interval = arguments.watchInterval {
            let digest = NIOLockedValueBox(loaded.digest)
            let directory = arguments.directory
            watcher = TreeWatcher(directory: directory, interval: interval) {
                do throws(DiagnosticsError) {
                    let reloaded = try ServedContracts.load(directory: directory)
                    guard digest.withLockedValue({ $0 }) != reloaded.digest else { return }
                    server.replace(fixtures: reloaded.fixtures)
                    digest.withLockedValue { $0 = reloaded.digest }
                    output(log.note("reloaded \(directory): \(reloaded.contracts) contracts, \(reloaded.fixtures.count) cases"))
                } catch {
                    errors(error.diagnostics, "the contracts in \(directory) have errors; still serving the last good set (run 'contract lint \(directory)')")
                }
            }
            watcher?.start()
        }
        return .success(Serving(server: server, watcher: watcher))
    }

    /// The line that opens the output: what is served and where.
    public static func banner(_ serving: Serving, directory: String, lenient: Bool) -> String {
        let fixtures = serving.server.fixtures
        let contracts = Set(fixtures.map(\.contract)).count
        let recording = serving.server.usage.map { "; recording usage in \($0.path)" } ?? ""
        return "serving \(contracts) contracts (\(fixtures.count) cases) from \(directory)\(lenient ? ", lenient: a request that breaks its contract is answered anyway" : ""); control API at \(MockServer.controlPrefix)\(recording)"
    }

    /// Why serving did not start, as the result to exit with.
    public struct Stopped: Error, Sendable {
        public let result: CommandResult<Void>

        init(_ result: CommandResult<Void>) {
            self.result = result
        }
    }
}
