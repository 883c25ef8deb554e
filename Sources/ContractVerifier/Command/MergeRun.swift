import ContractModel
import Foundation

/// What a `contract merge` came to.
public enum MergeOutcome: Sendable {
    /// A `--report` is invalid; nothing was read.
    case invalidArguments(VerifyArgumentError)
    /// A report cannot be read, or the reports are not the shards of one run; nothing was written.
    case invalidReports(MergeError)
    /// The merged run, told to every reporter: its summary has the tally, the exit code one
    /// unsharded run would have had, and the reports that could not be written.
    case finished(VerifySummary)
}

/// `contract merge SHARD.json…` as one call: read the shards' JSON reports, put them back
/// together (``ShardMerge``), and tell the reporters the run as one unsharded run would have told
/// them, so every report (JSON, JUnit, Markdown, HTML, the console) is the one that run writes.
public enum MergeRun {
    /// - Parameter reporters: told of the merged run before the report files (the console, say).
    public static func run(reports paths: [String], reportRequests: [String], reporters: [any VerifyReporter] = []) -> MergeOutcome {
        let requests: [ReportRequest]
        do {
            requests = try reportRequests.map { text throws(VerifyArgumentError) in try ReportRequest(parsing: text) }
            try ReportRequest.check(requests)
        } catch {
            return .invalidArguments(error)
        }
        guard !paths.isEmpty else { return .invalidArguments(VerifyArgumentError("give the JSON report of every shard to merge")) }
        var shards: [ShardReport] = []
        var problems: [Diagnostic] = []
        // More reports than a run has shards cannot be the shards of one run: none is read.
        guard paths.count <= Shard.maxCount else {
            return .invalidReports(MergeError([.argumentError(
                "expected the reports of at most \(Shard.maxCount) shards (the most verify splits a run in), found \(paths.count) files")]))
        }
        for path in paths {
            // Each file bounded before it is read (``ReportLimits``), and each value in it.
            switch ShardReport.read(path: path) {
            case .success(let shard): shards.append(shard)
            case .failure(let error): problems += error.diagnostics
            }
        }
        guard problems.isEmpty else { return .invalidReports(MergeError(problems)) }
        let merged: VerifyReport
        switch ShardMerge.merge(shards) {
        case .success(let report): merged = report
        case .failure(let error): return .invalidReports(error)
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
