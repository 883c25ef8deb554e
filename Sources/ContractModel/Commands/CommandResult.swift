/// What every command's library entry returns (`VerifyRun.run`, `DiffRun.run`, …), whether it
/// finished or stopped: the exit code, what to print, and the command's own summary for a caller
/// that wants more than text. The executable has one place that prints a result and exits with
/// its code; a test or a tool calls the entry and reads the same result.
///
/// Exit codes are a contract with CI scripts, the same for every command: 0 done (or clean),
/// 1 the check failed (drift, a breaking change, stale fixtures), 2 the command could not act
/// (arguments, files, contracts, an output it could not write), 3 no request reached a server.
public struct CommandResult<Summary: Sendable>: Sendable {
    public var exitCode: Int32
    /// What the command found or made, when it got that far: nil when it stopped before.
    public var summary: Summary?
    /// For standard output: the summary in words, whole lines, empty when the command streamed
    /// its output as it ran (verify's console) or stopped.
    public var output: String
    /// For standard error, in this order, as a compiler prints them: errors and warnings, each
    /// placed where it is.
    public var diagnostics: [Diagnostic]
    /// For standard error after the diagnostics: what did not happen because of them ("nothing
    /// was sent").
    public var consequence: String?
    /// The arguments themselves were refused: the executable adds where to read about them
    /// (`Run 'contract help verify' for its options.`).
    public var refusedArguments: Bool

    public init(
        exitCode: Int32, summary: Summary? = nil, output: String = "", diagnostics: [Diagnostic] = [], consequence: String? = nil,
        refusedArguments: Bool = false
    ) {
        self.exitCode = exitCode
        self.summary = summary
        self.output = output
        self.diagnostics = diagnostics
        self.consequence = consequence
        self.refusedArguments = refusedArguments
    }

    /// The command's arguments were refused; nothing was read or written (exit 2).
    public static func refused(_ error: DiagnosticsError) -> CommandResult {
        CommandResult(exitCode: 2, diagnostics: error.diagnostics, refusedArguments: true)
    }

    /// The command stopped at `error` (exit 2); `consequence` says what did not happen.
    public static func stopped(_ error: DiagnosticsError, consequence: String? = nil) -> CommandResult {
        CommandResult(exitCode: 2, diagnostics: error.diagnostics, consequence: consequence)
    }

    /// True when the command did what it was asked and found nothing that fails it.
    public var succeeded: Bool { exitCode == 0 }
}
