import ArgumentParser
import ContractDiff
import ContractModel
import ContractVerifier

/// The contracts directory, which lint, verify and fixtures all read.
struct ContractsDirectory: ParsableArguments {
    @Argument(help: "The contracts directory.")
    var directory = "contracts"
}

/// `--report KIND=PATH`, repeatable, with the command's own kinds (verify and merge: json, junit,
/// markdown, html; diff: text too). Checked by the library (``ReportRequest``).
struct ReportOptions<Kind: RawRepresentable & CaseIterable & Sendable & Hashable>: ParsableArguments where Kind.RawValue == String {
    @Option(name: .customLong("report"), help: ArgumentHelp(Self.help))
    var reports: [String] = []

    private static var help: String {
        let kinds = Kind.allCases.map { "'\($0.rawValue)=PATH'" }.joined(separator: ", ")
        return "Also write a report: \(kinds); repeatable."
    }
}

/// How verify and merge print a run's cases on the console.
struct ConsoleOptions: ParsableArguments {
    @Flag(name: [.customShort("q"), .long], help: "Print only the cases that did not pass (and the summary).")
    var quiet = false

    @Option(help: "Colours and a progress line: auto (on a terminal, unless NO_COLOR is set or TERM=dumb), always or never.")
    var color: ColorChoice = .auto
}

// The parser reads typed choices straight into the library's types, and lists them in the help.
extension ColorChoice: ExpressibleByArgument {}
extension FailOn: ExpressibleByArgument {}
extension DiffFailOn: ExpressibleByArgument {}
extension LintFormat: ExpressibleByArgument {}
