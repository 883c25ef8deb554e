import ContractFiles
import ContractModel
import Foundation

/// `contract baseline REPORT --out FILE` as one call: read the report and the baseline already at
/// `FILE` (if any), make the new one (``BaselineUpdate``), and replace the file whole
/// (``OutputFile``: written beside it, never through a link, then renamed), so an interrupted run
/// leaves the old baseline.
public enum BaselineRun {
    public static func run(report: String, out: String, reason: String?, expires: String?) -> CommandResult<BaselineUpdate.Outcome> {
        switch update(report: report, out: out, reason: reason, expires: expires) {
        case .success(let outcome):
            let output = "\(out): \(outcome.baseline.entries.count) known findings (\(outcome.added) added, \(outcome.kept) kept, \(outcome.removed) removed as fixed)\n"
            return CommandResult(exitCode: 0, summary: outcome, output: output)
        case .failure(let error):
            return .stopped(error)
        }
    }

    private static func update(report: String, out: String, reason: String?, expires: String?) -> Result<BaselineUpdate.Outcome, DiagnosticsError> {
        // Both files read with a limit (``ReportLimits/maxFileBytes``, ``Baseline/maxFileBytes``),
        // and every value in them checked, before anything is made of them.
        let reportBytes: [UInt8]
        switch InputFile.read(report, limit: ReportLimits.maxFileBytes) {
        case .success(let bytes): reportBytes = bytes
        case .failure(.tooLarge):
            return .failure(DiagnosticsError([.error(
                "expected a report of at most \(InputFile.describe(bytes: ReportLimits.maxFileBytes)) (the largest report contract reads); this file is larger", file: report)]))
        case .failure(let failure):
            return .failure(DiagnosticsError([.error("cannot read the report: \(InputFile.reason(failure))", file: report)]))
        }
        var previous: Baseline?
        if FileManager.default.fileExists(atPath: out) {
            switch Baseline.read(path: out) {
            case .success(let baseline): previous = baseline
            case .failure(let error): return .failure(error)
            }
        }
        let outcome: BaselineUpdate.Outcome
        switch BaselineUpdate.make(report: reportBytes, reportFile: report, previous: previous, reason: reason, expires: expires) {
        case .success(let made): outcome = made
        case .failure(let error): return .failure(error)
        }
        do throws(FolderError) {
            try OutputFile.write(outcome.baseline.text, to: out)
        } catch {
            return .failure(DiagnosticsError([.error("cannot write the baseline: \(error)", file: out)]))
        }
        return .success(outcome)
    }
}
