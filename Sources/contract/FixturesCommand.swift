import ArgumentParser
import ContractFixtures
import ContractModel

struct FixturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fixtures",
        abstract: "Write one offline fixture per case, for unit tests (see ContractTesting); or check that they are current.",
        discussion: """
            Each case becomes DIR/<contract id>/<case>.json: the request it sends (secrets left out) and a response it \
            accepts, with the case's example as the body or one synthesized from its schema and validated. \
            DIR/contract-fixtures.json lists the files this command owns; it never overwrites or deletes any other.

            Exit codes: 0 written, or up to date with --check; 1 with --check: missing, stale or extra fixtures; \
            2 invalid contracts or arguments, or a case whose body cannot be synthesized (nothing is written).
            """
    )

    @Option(help: "The folder to write the fixtures into (created when missing).")
    var out: String

    @OptionGroup var contracts: ContractsDirectory

    @Flag(help: "Write nothing; list missing, stale and extra fixtures and exit 1 if there are any.")
    var check = false

    func run() throws {
        switch FixturesRun.run(directory: contracts.directory, out: out, check: check) {
        case .invalidContracts(let invalid):
            invalid.print(consequence: "no fixtures written")
            throw ExitCode(2)
        case .unbuildable(let diagnostics):
            for diagnostic in diagnostics { printError(diagnostic.printed) }
            printError("no fixtures written")
            throw ExitCode(2)
        case .folderRefused(let error):
            printError(error.rendered)
            throw ExitCode(2)
        case .written(let summary, let count):
            print("\(count) fixtures in \(out): \(summary.written.count) written, \(summary.unchanged.count) unchanged, \(summary.removed.count) removed")
        case .checked(let report):
            for item in report.items { print(item) }
            guard report.isClean else {
                print("\(report.items.count) fixture\(report.items.count == 1 ? "" : "s") out of date in \(out); run 'contract fixtures --out \(out) \(contracts.directory)'")
                throw ExitCode(1)
            }
            print("\(report.upToDate) fixtures up to date in \(out)")
        }
    }
}
