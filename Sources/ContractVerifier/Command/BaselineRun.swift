import ContractModel
import Foundation

/// `contract baseline REPORT --out FILE` as one call: read the report and the baseline already at
/// `FILE` (if any), make the new one (``BaselineUpdate``), and replace the file whole (written
/// beside it, then renamed), so an interrupted run leaves the old baseline.
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
        let partial = out + ".partial"
        do {
            try Data(outcome.baseline.text.utf8).write(to: URL(fileURLWithPath: partial))
            if rename(partial, out) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: partial)
                return .failure(BaselineError([.error("cannot replace the baseline: \(reason)", file: out)]))
            }
        } catch {
            return .failure(BaselineError([.error("cannot write the baseline: \(error.localizedDescription)", file: out)]))
        }
        return .success(outcome)
    }
}
