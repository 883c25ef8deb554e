import ArgumentParser

/// The contracts directory, which lint, verify and fixtures all read.
struct ContractsDirectory: ParsableArguments {
    @Argument(help: "The contracts directory.")
    var directory = "contracts"
}
