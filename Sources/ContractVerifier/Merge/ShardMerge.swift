import ContractModel

/// The JSON reports of the shards of one run, put back together into the run one unsharded
/// `contract verify` would have made: every result in the whole run's plan order, the fixed
/// baseline entries of all shards, the tally and its exit code. Pure; ``MergeRun`` reads the
/// files and writes the reports.
///
/// Nothing is guessed: shards of another tree, another selection, baseline or server, a shard
/// missing or given twice, or cases missing are errors, never a report with a hole in it.
public enum ShardMerge {
    public static func merge(_ reports: [ShardReport]) -> Result<VerifyReport, DiagnosticsError> {
        guard let first = reports.first else { return .failure(DiagnosticsError([.argumentError("no report to merge")])) }
        var problems = reports.dropFirst().flatMap { differences($0, from: first) }
        problems += shardProblems(reports)
        // Every count was bounded where it was read; the cases are counted before a place is
        // made for any: the whole run's count comes from a file, the results are in them.
        if problems.isEmpty { problems += countProblems(reports, of: first) }
        guard problems.isEmpty else { return .failure(DiagnosticsError(problems)) }
        var results = reports.flatMap(\.results)
        results.sort { ($0.position ?? 0) < ($1.position ?? 0) }
        problems += caseProblems(results, of: first)
        guard problems.isEmpty else { return .failure(DiagnosticsError(problems)) }

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
            let split = reports.prefix(Self.maxListed).compactMap { report in report.run.shard.map { "'\(report.file)' is \($0)" } }.joined(separator: ", ")
            return [.argumentError("the reports split the run in different ways: \(split)\(reports.count > Self.maxListed ? ", …" : "")")]
        }
        // `count` is at most ``Shard/maxCount`` (the reader refuses more).
        let missing = (1...count).filter { byIndex[$0] == nil }
        if !missing.isEmpty {
            var list = missing.prefix(Self.maxListed).map { "\($0)/\(count)" }.joined(separator: ", ")
            if missing.count > Self.maxListed { list += " and \(missing.count - Self.maxListed) more" }
            problems.append(.argumentError(
                "shard\(missing.count == 1 ? "" : "s") \(list) \(missing.count == 1 ? "is" : "are") missing: the run was split in \(count), and only \(byIndex.count) report\(byIndex.count == 1 ? " was" : "s were") given"))
        }
        return problems
    }

    /// Shards and places listed in a message at most; the rest are counted.
    static let maxListed = 10

    /// As many cases in the reports as the run has: checked before anything is made per case of
    /// the run (its count is read from a file, the results are what the files hold).
    private static func countProblems(_ reports: [ShardReport], of first: ShardReport) -> [Diagnostic] {
        let held = reports.reduce(0) { $0 + $1.results.count }
        guard held != first.run.cases else { return [] }
        if held > first.run.cases, let repeated = repeatedCase(reports.flatMap(\.results).sorted { ($0.position ?? 0) < ($1.position ?? 0) }) {
            return [.argumentError("case '\(repeated.name)' is in more than one report: these are not shards of one run")]
        }
        return [.argumentError("the reports hold \(held) of the run's \(first.run.cases) cases: a report was cut short or edited")]
    }

    /// Each case of the whole run exactly once, at its place; `results` are sorted by place and
    /// as many as the run has cases.
    private static func caseProblems(_ results: [CaseResult], of first: ShardReport) -> [Diagnostic] {
        if let repeated = repeatedCase(results) {
            return [.argumentError("case '\(repeated.name)' is in more than one report: these are not shards of one run")]
        }
        for (index, result) in results.enumerated() where result.position != index {
            return [.argumentError("the reports hold no case at place \(index) of the run's \(first.run.cases): a report was cut short or edited")]
        }
        return []
    }

    /// The first case whose place another case has too, in results sorted by place.
    private static func repeatedCase(_ sorted: [CaseResult]) -> CaseResult? {
        zip(sorted, sorted.dropFirst()).first { $0.position == $1.position }?.1
    }

    private static func short(_ digest: String?) -> String {
        digest.map { String($0.prefix(12)) } ?? "unknown"
    }
}
