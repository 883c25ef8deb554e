import ArgumentParser
import ContractVerifier
import Foundation

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the JSON reports of the shards of one verify run into the reports of the whole run.",
        discussion: """
            'contract verify --shard i/n --report json=PATH' runs one part of the cases (a CI matrix); give this \
            command the JSON report of every part. It writes the reports and prints the console output one \
            unsharded run would have written, cases in the run's order, and exits with that run's code. The \
            shards must be all n parts of one run: the same contracts tree (byte for byte), the same selection, \
            baseline, --fail-on and server. A missing shard, a shard given twice or a shard of another run is \
            an error, and nothing is written.

            Exit codes:
              0  every case passed (with a baseline: every finding is known)
              1  at least one case drifted or got no complete response (with a baseline: a new finding;
                 with --fail-on any: any finding)
              2  a report cannot be read, the reports are not the shards of one run, or a report cannot be written
              3  no request of any shard reached a server
            """
    )

    @Argument(help: "The JSON report of each shard ('contract verify --shard i/n --report json=PATH').")
    var shardReports: [String] = []

    @OptionGroup var reports: ReportOptions<FileReporter.Kind>

    @OptionGroup var console: ConsoleOptions

    func run() throws {
        if !reports.reports.isEmpty { StopSignals.removePartialOutputsOnStop() }
        let terminal = RunConsole(console, environment: ProcessInfo.processInfo.environment)
        let result = MergeRun.run(reports: shardReports, reportRequests: reports.reports, reporters: [terminal.reporter])
        terminal.output.flush()
        try result.exit(command: "merge")
    }
}
