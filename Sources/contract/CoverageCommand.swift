import ArgumentParser
import ContractCoverage
import Foundation

struct CoverageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Join the contracts with what the app's tests used, what the server was verified to do, and an OpenAPI document.",
        discussion: """
            Per contract case: whether the app's unit tests use it (how many requests, from which tests: the usage \
            files ContractTesting and the mock server write when CONTRACT_USAGE_DIR names a folder), and whether the \
            server kept it (passed, failed with which findings, or not run: verify's JSON reports, the shards of one \
            run merged as 'contract merge' does). Requests that matched no fixture or broke their contract are summed \
            over the whole suite. With --openapi, every operation and documented response of the document is covered \
            by a case or listed. Each input is optional; give the ones you have (docs/coverage.md).

            Exit codes:
              0  the gate passed, or none was asked for
              1  the gate found a gap (--fail-on, --min-used), each named
              2  an argument, the contracts, a usage file, a report or the document cannot be used, or a report cannot be written
            """
    )

    @OptionGroup var contracts: ContractsDirectory

    @Option(name: .customLong("usage"), help: "A folder of usage files (CONTRACT_USAGE_DIR of the test runs); repeatable.")
    var usage: [String] = []

    @Option(
        name: .customLong("verify-report"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "JSON reports of 'contract verify' ('--report json=PATH'): one run's, or every shard's of one run, merged (--verify-report reports/shard-*.json); repeatable.",
            valueName: "report"))
    var verifyReports: [String] = []

    @Option(name: .customLong("openapi"), help: "The OpenAPI document (YAML or JSON) whose operations and responses the contracts should cover.")
    var openAPI: String?

    @Option(
        name: .customLong("fail-on"), parsing: .upToNextOption,
        help: ArgumentHelp("What fails the run (exit 1), repeatable: \(CoverageFailOn.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "gap"))
    var failOn: [CoverageFailOn] = []

    @Option(name: .customLong("min-used"), help: ArgumentHelp("Fail the run (exit 1) when the tests use fewer than this percentage of the cases.", valueName: "percent"))
    var minUsed: Int?

    @OptionGroup var reports: ReportOptions<CoverageReportKind>

    func run() throws {
        if !reports.reports.isEmpty { StopSignals.removePartialOutputsOnStop() }
        var arguments = CoverageArguments(directory: contracts.directory, workingDirectory: FileManager.default.currentDirectoryPath)
        arguments.usageFolders = usage
        arguments.verifyReports = verifyReports
        arguments.openAPIDocument = openAPI
        arguments.gate = CoverageGate(failOn: Set(failOn), minimumUsedPercent: minUsed)
        arguments.reports = reports.reports
        try CoverageRun.run(arguments).exit(command: "coverage")
    }
}

extension CoverageFailOn: ExpressibleByArgument {}
