import ArgumentParser
import ContractVerifier

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Write or update a baseline of known findings from a 'contract verify --report json=PATH' report.",
        discussion: """
            Every finding of the report is listed by its fingerprint. Reasons and expiry dates already in the file \
            are kept for findings still met; entries of cases the report ran that no finding met are removed (fixed); \
            entries of cases it did not run (another shard) stay. Then 'contract verify --baseline FILE' fails only on \
            new findings. One entry per line, sorted: review it in pull requests (docs/baseline.md).

            Exit codes: 0 written, 2 the report or the baseline cannot be read.
            """
    )

    @Argument(help: "A JSON report of contract verify.")
    var report: String

    @Option(help: "The baseline file to write (updated when it exists).")
    var out: String

    @Option(help: "Why the findings added now are accepted; kept in each new entry.")
    var reason: String?

    @Option(help: "The last day (YYYY-MM-DD) the findings added now count as known.")
    var expires: String?

    func run() throws {
        // A stopped update must not leave a partial baseline behind.
        StopSignals.removePartialOutputsOnStop()
        try BaselineRun.run(report: report, out: out, reason: reason, expires: expires).exit(command: "baseline")
    }
}
