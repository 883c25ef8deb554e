import ContractModel
import ContractVerifier

/// The I/O edge of `--verify-report`: verify's JSON reports, read with the reader `contract merge`
/// uses (every bound of ``ReportLimits``), and, when there are several, merged as `contract merge`
/// merges them: the shards of one run, all of them, or an error.
enum VerifyReports {
    struct Read: Sendable {
        var results: [CaseResult]
        var baseURL: String
        /// The digest of the contracts tree the run verified.
        var tree: String?
        var warnings: [Diagnostic] = []
    }

    static func read(_ paths: [String]) -> Result<Read, DiagnosticsError> {
        // More reports than a run has shards cannot be the shards of one run: none is read (each
        // can be a gibibyte), as `contract merge` refuses them.
        guard paths.count <= Shard.maxCount else {
            return .failure(DiagnosticsError([.argumentError(
                "expected the reports of at most \(Shard.maxCount) shards (the most verify splits a run in), found \(paths.count) files")]))
        }
        var shards: [ShardReport] = []
        var problems: [Diagnostic] = []
        for path in paths {
            switch ShardReport.read(path: path) {
            case .success(let shard): shards.append(shard)
            case .failure(let error): problems += error.diagnostics
            }
        }
        guard problems.isEmpty, let first = shards.first else { return .failure(DiagnosticsError(problems)) }
        let results: [CaseResult]
        if shards.count == 1, first.run.shard == nil {
            results = first.results
        } else {
            switch ShardMerge.merge(shards) {
            case .success(let report): results = report.results
            case .failure(let error): return .failure(error)
            }
        }
        return .success(Read(results: results, baseURL: first.baseURL, tree: first.run.tree))
    }
}
