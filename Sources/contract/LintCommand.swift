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

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    @OptionGroup var contracts: ContractsDirectory

    @Option(help: "Output format: text (compiler-style lines) or json (for editors and CI annotations).")
    var format: Format = .text

    func run() throws {
        let report: LintReport
        do {
            report = try ContractLinter.lint(directory: contracts.directory)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(2)
        }
        switch format {
        case .text: print(report.renderText(), terminator: "")
        case .json: print(report.renderJSON(), terminator: "")
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }
}
