import ArgumentParser
import ContractModel

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check contracts without a server: syntax, keys, types, paths, statuses, headers and references.",
        discussion: """
            Prints every problem as 'path:line:column: severity: message [json-pointer]', sorted by file and position.

            Exit codes: 0 no errors (warnings allowed), 2 at least one error or an unusable directory.
            """
    )

    @OptionGroup var contracts: ContractsDirectory

    @Option(help: "Output format: text (compiler-style lines) or json (for editors and CI annotations).")
    var format: LintFormat = .text

    func run() throws {
        try LintRun.run(directory: contracts.directory, format: format).exit(command: "lint")
    }
}
