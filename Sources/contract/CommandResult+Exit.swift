import ArgumentParser
import ContractModel

extension CommandResult {
    /// The one place a command's result becomes output and an exit code. Warnings and notes come
    /// first, as a compiler's do, then the summary on standard output, then errors and what did not
    /// happen because of them, so the last line on a terminal is the one that matters.
    func exit(command: String) throws {
        for diagnostic in diagnostics where diagnostic.severity != .error { printError(diagnostic.rendered) }
        if !output.isEmpty { print(output, terminator: output.hasSuffix("\n") ? "" : "\n") }
        for diagnostic in diagnostics where diagnostic.severity == .error { printError(diagnostic.rendered) }
        if let consequence { printError(consequence) }
        if refusedArguments { printError("Run 'contract help \(command)' for its options.") }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
