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

    @Argument(help: "The contracts directory.")
    var directory = "contracts"

    @Flag(help: "Write nothing; list missing, stale and extra fixtures and exit 1 if there are any.")
    var check = false

    func run() throws {
        let set = try loadValidContracts(directory, consequence: "no fixtures written")
        let (fixtures, problems) = FixturePlanner(set).plan()
        if !problems.isEmpty {
            for problem in problems { printError("error: \(problem)") }
            printError("no fixtures written")
            throw ExitCode(2)
        }
        let store = FixtureStore(directory: out)
        do {
            if check {
                let report = try store.check(fixtures)
                for item in report.items { print(item) }
                if !report.isClean {
                    print("\(report.items.count) fixture\(report.items.count == 1 ? "" : "s") out of date in \(out); run 'contract fixtures --out \(out) \(directory)'")
                    throw ExitCode(1)
                }
                print("\(report.upToDate) fixtures up to date in \(out)")
            } else {
                let summary = try store.write(fixtures)
                print("\(fixtures.count) fixtures in \(out): \(summary.written.count) written, \(summary.unchanged.count) unchanged, \(summary.removed.count) removed")
            }
        } catch let error as FixtureStoreError {
            printError(error.rendered)
            throw ExitCode(2)
        }
    }
}
