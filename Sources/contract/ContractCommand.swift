import ArgumentParser
import Foundation

@main
struct ContractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Contract testing for HTTP APIs: one set of JSON contracts for live servers and unit-test fixtures.",
        version: "0.1.0",
        subcommands: [LintCommand.self, VerifyCommand.self, MergeCommand.self, BaselineCommand.self, DiffCommand.self, FixturesCommand.self, ImportCommand.self, ServeCommand.self, CoverageCommand.self]
    )

    /// Exit codes are a contract with CI scripts: invalid arguments exit 2, like invalid contracts,
    /// instead of the argument parser's 64.
    static func main() async {
        if let unknown = UnknownCommand.message(for: Array(CommandLine.arguments.dropFirst())) {
            printError("error: \(unknown)")
            printError("Run 'contract help' for the commands.")
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            printError("error: " + message(for: error))
            printError(helpHint(for: Array(CommandLine.arguments.dropFirst())))
            Foundation.exit(2)
        }
    }

    /// Where to read about the options of the command the arguments name:
    /// `Run 'contract help verify' for its options.`
    static func helpHint(for arguments: [String]) -> String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let command = arguments.first(where: names.contains) else { return "Run 'contract help' for the commands." }
        return "Run 'contract help \(command)' for its options."
    }
}
