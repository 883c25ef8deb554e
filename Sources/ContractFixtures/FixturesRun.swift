import ContractModel

/// What `contract fixtures` did: the fixtures it wrote, or with `--check` what is out of date.
public enum FixturesSummary: Sendable {
    /// The fixtures were written: `count` of them, and what changed.
    case written(FixtureStore.WriteSummary, count: Int)
    /// `--check`: what is missing, stale or extra (nothing when the folder is current).
    case checked(FixtureStore.CheckReport)
}

/// `contract fixtures` as one call: load the contracts, plan one fixture per case, then write the
/// folder or check it. The executable declares the options and prints the outcome.
public enum FixturesRun {
    /// - Parameters:
    ///   - directory: the contracts directory.
    ///   - out: the folder the fixtures are written into.
    ///   - check: write nothing; compare the folder with what would be written.
    ///
    /// Stops (exit 2, nothing written) when the contracts cannot be read or have errors, when a
    /// case cannot get a fixture (a body that cannot be synthesized, placed at its case), or when
    /// the output folder is refused (files it does not own, a link) or cannot be changed; the
    /// folder is then as it was. With `check`, exits 1 when fixtures are missing, stale or extra.
    public static func run(directory: String, out: String, check: Bool) -> CommandResult<FixturesSummary> {
        let set: ContractSet
        do {
            set = try ContractLoader.loadValid(directory: directory)
        } catch {
            return .invalidContracts(error, directory: directory, consequence: "no fixtures written")
        }
        let planner = FixturePlanner(set)
        let (fixtures, problems) = planner.plan()
        guard problems.isEmpty else { return .stopped(DiagnosticsError(planner.diagnostics(for: problems)), consequence: "no fixtures written") }
        let store = FixtureStore(directory: out)
        do {
            guard check else {
                let written = try store.write(fixtures)
                let output = "\(fixtures.count) fixtures in \(out): \(written.written.count) written, \(written.unchanged.count) unchanged, \(written.removed.count) removed\n"
                return CommandResult(exitCode: 0, summary: .written(written, count: fixtures.count), output: output)
            }
            let report = try store.check(fixtures)
            var output = report.items.map { "\($0)\n" }.joined()
            let count = report.items.count
            output += report.isClean
                ? "\(report.upToDate) fixtures up to date in \(out)\n"
                : "\(count) fixture\(count == 1 ? "" : "s") out of date in \(out); run 'contract fixtures --out \(out) \(directory)'\n"
            return CommandResult(exitCode: report.isClean ? 0 : 1, summary: .checked(report), output: output)
        } catch {
            return .stopped(DiagnosticsError(error.diagnostic))
        }
    }
}
