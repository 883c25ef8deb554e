import ArgumentParser
import ContractVerifier
import Foundation

/// The console a run prints its cases on, for `verify` and `merge`: its style chosen from
/// `--color`, the environment and whether standard output is a terminal; buffered when plain.
struct RunConsole {
    let output: ConsoleOutput
    let reporter: ConsoleReporter

    init(color: ColorChoice, quiet: Bool, environment: [String: String]) {
        let style = ConsoleReporter.Style(choosing: color, environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) != 0)
        output = ConsoleOutput(buffered: style == .plain)
        reporter = ConsoleReporter(style: style, quiet: quiet, write: output.write)
    }
}

extension VerifySummary {
    /// Ends the command as the run came out: 2 when a report could not be written (each said),
    /// else the run's exit code.
    func exit() throws {
        for problem in reporterErrors { printError("error: \(problem)") }
        if !reporterErrors.isEmpty { throw ExitCode(2) }
        if exitCode != 0 { throw ExitCode(exitCode) }
    }
}
