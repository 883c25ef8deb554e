import ArgumentParser
import ContractFixtures

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
        try FixturesRun.run(directory: contracts.directory, out: out, check: check).exit(command: "fixtures")
    }
}
