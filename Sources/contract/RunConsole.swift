import ArgumentParser
import ContractVerifier
import Foundation

/// The console a run prints its cases on, for `verify` and `merge`: its style chosen from
/// `--color`, the environment and whether standard output is a terminal; buffered when plain.
struct RunConsole {
    let output: ConsoleOutput
    let reporter: ConsoleReporter

    init(_ options: ConsoleOptions, environment: [String: String]) {
        let style = ConsoleReporter.Style(choosing: options.color, environment: environment, outputIsTerminal: isatty(STDOUT_FILENO) != 0)
        output = ConsoleOutput(buffered: style == .plain)
        reporter = ConsoleReporter(style: style, quiet: options.quiet, writeUTF8: output.write(utf8:))
    }
}
