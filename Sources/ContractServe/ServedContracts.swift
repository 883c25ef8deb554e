import ContractFixtures
import ContractJSON
import ContractModel
import ContractRequests

/// The load stage of `contract serve`: a contracts folder made into the fixtures
/// `contract fixtures` would write (the same planner, the same bytes), read back with the one
/// fixture reader, in memory: nothing is written.
enum ServedContracts {
    struct Loaded: Sendable {
        var fixtures: [FixtureFile]
        var contracts: Int
        /// What the tree's files hash to: an edit that changes nothing is no reload.
        var digest: String?
    }

    /// - Throws: the tree's errors, or the cases that cannot get a fixture, as lint and
    ///   `contract fixtures` give them.
    static func load(directory: String) throws(DiagnosticsError) -> Loaded {
        let set = try ContractLoader.loadValid(directory: directory)
        let planner = FixturePlanner(set)
        let (planned, problems) = planner.plan()
        guard problems.isEmpty else { throw DiagnosticsError(planner.diagnostics(for: problems)) }
        var endpoints: [String: RequestDescription] = [:]
        var fixtures: [FixtureFile] = []
        fixtures.reserveCapacity(planned.count)
        for fixture in planned {
            do {
                let json = try JSONParser(tracksLocations: false).parse(fixture.bytes).value
                fixtures.append(try FixtureFile(json: json, file: fixture.path, reader: "contract serve", endpoints: &endpoints))
            } catch {
                // The planner writes what the reader reads; a difference is this tool's own defect.
                throw DiagnosticsError(argument: "\(fixture.shownSource): \(fixture.contractID)/\(fixture.caseName): its fixture cannot be served: \(error)")
            }
        }
        return Loaded(fixtures: fixtures, contracts: set.contracts.count, digest: set.treeDigest)
    }
}
