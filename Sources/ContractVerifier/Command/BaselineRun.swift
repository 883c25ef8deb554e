import ContractFiles
import ContractModel
import Foundation

/// `contract baseline REPORT --out FILE` as one call: read the report and the baseline already at
/// `FILE` (if any), make the new one (``BaselineUpdate``), and replace the file whole
/// (``OutputFile``: written beside it, never through a link, then renamed), so an interrupted run
/// leaves the old baseline.
public enum BaselineRun {
    public static func run(report: String, out: String, reason: String?, expires: String?) -> Result<BaselineUpdate.Outcome, BaselineError> {
        guard let reportData = FileManager.default.contents(atPath: report) else {
            return .failure(BaselineError([.error("cannot read the report", file: report)]))
        }
        var previous: Baseline?
        if FileManager.default.fileExists(atPath: out) {
            guard let data = FileManager.default.contents(atPath: out) else {
                return .failure(BaselineError([.error("cannot read the baseline to update", file: out)]))
            }
            switch Baseline.parse(Array(data), file: out) {
            case .success(let baseline): previous = baseline
            case .failure(let error): return .failure(error)
            }
        }
        let outcome: BaselineUpdate.Outcome
        switch BaselineUpdate.make(report: Array(reportData), reportFile: report, previous: previous, reason: reason, expires: expires) {
        case .success(let made): outcome = made
        case .failure(let error): return .failure(error)
        }
        do throws(FolderError) {
            try OutputFile.write(outcome.baseline.text, to: out)
        } catch {
            return .failure(BaselineError([.error("cannot write the baseline: \(error)", file: out)]))
        }
        return .success(outcome)
    }
}
