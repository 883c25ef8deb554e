import ContractModel

/// What a `contract fixtures` run came to.
public enum FixturesOutcome: Sendable {
    /// The contracts directory cannot be read, or its contracts have errors; nothing was written.
    case invalidContracts(InvalidContracts)
    /// Some cases cannot get a fixture (a body that cannot be synthesized, say), each problem
    /// placed at its case; nothing was written.
    case unbuildable([Diagnostic])
    /// The output folder was refused (files it does not own, a link) or could not be read or
    /// changed; it is as it was.
    case folderRefused(FixtureStoreError)
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
    public static func run(directory: String, out: String, check: Bool) -> FixturesOutcome {
        let set: ContractSet
        do {
            set = try ContractLoader.loadValid(directory: directory)
        } catch {
            return .invalidContracts(error)
        }
        let planner = FixturePlanner(set)
        let (fixtures, problems) = planner.plan()
        guard problems.isEmpty else { return .unbuildable(planner.diagnostics(for: problems)) }
        let store = FixtureStore(directory: out)
        do {
            if check { return .checked(try store.check(fixtures)) }
            return .written(try store.write(fixtures), count: fixtures.count)
        } catch {
            return .folderRefused(error)
        }
    }
}
