import ContractFiles
import ContractHTTP
import ContractJSON
import ContractModel
import Foundation

/// A JSON report of `contract verify` read back: what the run was, and every result as the run
/// had it, so that reports made from it are the ones the run would have written
/// (docs/verify-report.md). Every problem is a diagnostic placed in the file.
public struct ShardReport: Sendable {
    /// The file, as given.
    public var file: String
    public var baseURL: String
    public var run: RunIdentity
    public var duration: Duration
    /// In the whole run's plan order.
    public var results: [CaseResult]
    public var fixed: [Baseline.Entry]

    /// Reads the report in `bytes`; `file` names it in diagnostics. Every value is checked
    /// against ``ReportLimits`` and the others (``ReportReader``) before anything is made of it.
    public static func read(_ bytes: [UInt8], file: String) -> Result<ShardReport, DiagnosticsError> {
        switch ReportReader.read(bytes, file: file, requiresRun: true) {
        case .success(let contents):
            guard let run = contents.run else { return .failure(DiagnosticsError([.error("the report does not say which run it is part of ('run')", file: file)])) }
            return .success(ShardReport(file: file, baseURL: contents.baseURL, run: run, duration: contents.duration, results: contents.results, fixed: contents.fixed))
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Reads the report at `path`, refusing a file larger than ``ReportLimits/maxFileBytes``
    /// before reading it.
    public static func read(path: String) -> Result<ShardReport, DiagnosticsError> {
        switch InputFile.read(path, limit: ReportLimits.maxFileBytes) {
        case .success(let bytes): return read(bytes, file: path)
        case .failure(.tooLarge):
            return .failure(DiagnosticsError([.error(
                "expected a report of at most \(InputFile.describe(bytes: ReportLimits.maxFileBytes)) (the largest report contract merge reads); this file is larger", file: path)]))
        case .failure(.unreadable(ENOENT)):
            return .failure(DiagnosticsError([.error("no such file", file: path)]))
        case .failure(let failure):
            return .failure(DiagnosticsError([.error("cannot read the report: \(InputFile.reason(failure))", file: path)]))
        }
    }
}

