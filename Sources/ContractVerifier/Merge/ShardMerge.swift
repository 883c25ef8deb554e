import ContractModel

/// The JSON reports of the shards of one run, put back together into the run one unsharded
/// `contract verify` would have made: every result in the whole run's plan order, the fixed
/// baseline entries of all shards, the tally and its exit code. Pure; ``MergeRun`` reads the
/// files and writes the reports.
///
/// Nothing is guessed: shards of another tree, another selection, baseline or server, a shard
/// missing or given twice, or cases missing are errors, never a report with a hole in it.
public enum ShardMerge {
    public static func merge(_ reports: [ShardReport]) -> Result<VerifyReport, MergeError> {
        guard let first = reports.first else { return .failure(MergeError([.argumentError("no report to merge")])) }
        var problems = reports.dropFirst().flatMap { differences($0, from: first) }
        problems += shardProblems(reports)
        var results = reports.flatMap(\.results)
        results.sort { ($0.position ?? 0) < ($1.position ?? 0) }
        if problems.isEmpty { problems += caseProblems(results, of: first) }
        guard problems.isEmpty else { return .failure(MergeError(problems)) }

        var summary = VerifySummary(baseURL: first.baseURL)
        summary.run = first.run.whole
        summary.failOn = first.run.failOn
        summary.hasBaseline = first.run.baseline != nil
        for result in results { summary.count(result) }
        // The shards ran side by side in a CI matrix: the run took as long as its longest part.
        summary.duration = reports.map(\.duration).max() ?? .zero
        var fixed: [String: Baseline.Entry] = [:]
        for entry in reports.flatMap(\.fixed) where fixed[entry.fingerprint] == nil { fixed[entry.fingerprint] = entry }
        summary.fixed = fixed.values.sorted { ($0.caseName, $0.fingerprint) < ($1.caseName, $1.fingerprint) }
        return .success(VerifyReport(summary: summary, results: results))
    }

    /// What makes `report` part of another run than `first`.
    private static func differences(_ report: ShardReport, from first: ShardReport) -> [Diagnostic] {
        let (mine, theirs) = (report.run, first.run)
        var problems: [String] = []
        if mine.tree != theirs.tree {
            problems.append("is from another contracts tree than '\(first.file)' (tree \(short(mine.tree)), not \(short(theirs.tree))): every shard must run the same commit")
        } else if mine.plan != theirs.plan || mine.cases != theirs.cases {
            problems.append("selects other cases than '\(first.file)' (\(mine.cases) in the whole run, not \(theirs.cases); --id, --tag and --no-format-assertion must be the same in every shard)")
        }
        if mine.baseline != theirs.baseline {
            problems.append("ran with another baseline than '\(first.file)' (--baseline must name the same file in every shard)")
        }
        if mine.failOn != theirs.failOn {
            problems.append("ran with --fail-on \(mine.failOn.rawValue), '\(first.file)' with --fail-on \(theirs.failOn.rawValue)")
        }
        if report.baseURL != first.baseURL {
            problems.append("ran against '\(report.baseURL)', '\(first.file)' against '\(first.baseURL)'")
        }
        return problems.map { .error($0, file: report.file) }
    }

    /// Every shard of n exactly once, or one whole run alone.
    private static func shardProblems(_ reports: [ShardReport]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var byIndex: [Int: ShardReport] = [:]
        var counts: Set<Int> = []
        for report in reports {
            guard let shard = report.run.shard else {
                if reports.count > 1 { problems.append(.error("is a whole run, not a shard (--shard i/n): there is nothing to merge it with", file: report.file)) }
                continue
            }
            counts.insert(shard.count)
            if let other = byIndex[shard.index] {
                problems.append(.error("is shard \(shard) again, as '\(other.file)' is: give each shard's report once", file: report.file))
            } else {
                byIndex[shard.index] = report
            }
        }
        guard problems.isEmpty, let count = counts.first else { return problems }
        if counts.count > 1 {
            let split = reports.compactMap { report in report.run.shard.map { "'\(report.file)' is \($0)" } }.joined(separator: ", ")
            return [.argumentError("the reports split the run in different ways: \(split)")]
        }
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
            problems.append(.argumentError(
                "shard\(missing.count == 1 ? "" : "s") \(list) \(missing.count == 1 ? "is" : "are") missing: the run was split in \(count), and only \(byIndex.count) report\(byIndex.count == 1 ? " was" : "s were") given"))
        }
        return problems
    }

    /// Each case of the whole run exactly once, at its place.
    private static func caseProblems(_ results: [CaseResult], of first: ShardReport) -> [Diagnostic] {
        let expected = first.run.cases
        let positions = results.compactMap(\.position)
        if positions != Array(0..<expected) {
            let repeated = Dictionary(grouping: results, by: { $0.position ?? -1 }).filter { $0.value.count > 1 }.values.first?.first
            if let repeated {
                return [.argumentError("case '\(repeated.name)' is in more than one report: these are not shards of one run")]
            }
            return [.argumentError("the reports hold \(positions.count) of the run's \(expected) cases: a report was cut short or edited")]
        }
        return []
    }

    private static func short(_ digest: String?) -> String {
        digest.map { String($0.prefix(12)) } ?? "unknown"
    }
}
