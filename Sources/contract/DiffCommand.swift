import ArgumentParser
import ContractDiff
import Foundation

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two versions of the contracts and say which changes break clients.",
        discussion: """
            OLD and NEW are each a folder of contracts, an OpenAPI document (imported as 'contract import openapi' \
            would, in memory), or either at a git revision: 'main:contracts', 'HEAD~1:openapi.yaml'. Every change is \
            breaking (a client that worked against OLD can fail against NEW), a warning (it may) or safe, with its \
            rule (docs/diff-rules.md), the contract, case and place in both trees, and the fixtures of the app's unit \
            tests it touches. Schemas are compared after following $ref, so moving a schema to another file is no change.

            Exit codes:
              0  no change at or above --fail-on (ignored changes aside)
              1  a breaking change (with --fail-on warning: a warning too)
              2  an argument, a tree or the ignore file cannot be used, or a report cannot be written
            """
    )

    @Argument(help: "The contracts before: a folder, an OpenAPI document, or REV:PATH.")
    var old: String

    @Argument(help: "The contracts after: a folder, an OpenAPI document, or REV:PATH.")
    var new: String

    @Option(help: "What fails the run (exit 1): 'breaking' changes (the default) or 'warning' and above.")
    var failOn = DiffFailOn.breaking

    @Option(help: "Changes accepted, each with a reason: a 'contract-diff-ignore' file (docs/diff-rules.md).")
    var ignore: String?

    @OptionGroup var reports: ReportOptions<DiffReportKind>

    @Option(help: "Accept every change that would fail the run, with this reason: written into the --ignore file (made when missing), to review in the pull request.")
    var accept: String?

    @Option(help: "The last day (YYYY-MM-DD) the entries --accept writes hold.")
    var expires: String?

    func run() throws {
        // A stopped diff must not leave a partial report or ignore file, or a revision's copy, behind.
        StopSignals.removePartialOutputsOnStop()
        var arguments = DiffArguments(old: old, new: new, workingDirectory: FileManager.default.currentDirectoryPath)
        arguments.failOn = failOn
        arguments.ignorePath = ignore
        arguments.reports = reports.reports
        arguments.acceptReason = accept
        arguments.acceptExpires = expires
        try DiffRun.run(arguments).exit(command: "diff")
    }
}
