import ArgumentParser

@main
struct ContractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Contract testing for HTTP APIs: one set of JSON contracts for live servers and unit-test fixtures.",
        version: "0.1.0",
        subcommands: [LintCommand.self, VerifyCommand.self]
    )
}
