import ContractModel
import Foundation

/// `contract merge SHARD.json…` as one call: read the shards' JSON reports, put them back
/// together (``ShardMerge``), and tell the reporters the run as one unsharded run would have told
/// them, so every report (JSON, JUnit, Markdown, HTML, the console) is the one that run writes.
public enum MergeRun {
    /// - Parameter reporters: told of the merged run before the report files (the console, say).
    /// The result's summary is the merged run's, as told to every reporter: the tally, the exit
    /// code one unsharded run would have had, and the reports that could not be written.
    public static func run(reports paths: [String], reportRequests: [String], reporters: [any VerifyReporter] = []) -> CommandResult<VerifySummary> {
        let requests: [VerifyReportRequest]
        do {
            requests = try VerifyReportRequest.checked(reportRequests)
        } catch {
            return .refused(error)
        }
        guard !paths.isEmpty else { return .refused(DiagnosticsError(argument: "give the JSON report of every shard to merge")) }
        var shards: [ShardReport] = []
        var problems: [Diagnostic] = []
        // More reports than a run has shards cannot be the shards of one run: none is read.
        guard paths.count <= Shard.maxCount else {
            return .stopped(DiagnosticsError([.argumentError(
                "expected the reports of at most \(Shard.maxCount) shards (the most verify splits a run in), found \(paths.count) files")]), consequence: "nothing was written")
        }
        for path in paths {
            // Each file bounded before it is read (``ReportLimits``), and each value in it.
            switch ShardReport.read(path: path) {
            case .success(let shard): shards.append(shard)
            case .failure(let error): problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { return .stopped(DiagnosticsError(problems), consequence: "nothing was written") }
        let merged: VerifyReport
        switch ShardMerge.merge(shards) {
        case .success(let report): merged = report
        case .failure(let error): return .stopped(error, consequence: "nothing was written")
        }
        let summary = merged.summary
        // Secrets were masked when the shards wrote their reports; nothing here can hold one.
        let delivery = EventDelivery(
            reporters: reporters + requests.map { $0.reporter() }, baseURL: summary.baseURL, run: summary.run ?? shards[0].run.whole, baseline: nil
        ) { $0 }
        delivery.started(total: merged.results.count)
        for (position, result) in merged.results.enumerated() { delivery.finished(result, at: position) }
        return .finished(delivery.completed(after: summary.duration, fixed: summary.fixed))
    }
}
