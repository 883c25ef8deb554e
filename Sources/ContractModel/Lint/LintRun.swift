/// How `contract lint` prints its findings.
public enum LintFormat: String, Sendable, CaseIterable {
    /// Compiler-style lines, `path:line:column: severity: message [json-pointer]`.
    case text
    /// One JSON document, for editors and CI annotations.
    case json
}

/// `contract lint` as one call. Its findings are its output (on standard output, where editors
/// and CI read them), not diagnostics about the command; it exits 2 on an error in the contracts
/// or a directory it cannot read.
public enum LintRun {
    public static func run(directory: String, format: LintFormat) -> CommandResult<LintReport> {
        let report: LintReport
        do {
            report = try ContractLinter.lint(directory: directory)
        } catch {
            return .stopped(DiagnosticsError(argument: error.message))
        }
        let output = switch format {
        case .text: report.renderText()
        case .json: report.renderJSON()
        }
        return CommandResult(exitCode: report.exitCode, summary: report, output: output)
    }
}
