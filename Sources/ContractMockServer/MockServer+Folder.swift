import ContractJSON
import ContractRequests
import Foundation

// The fixtures a UI test serves: the folder `contract fixtures --out` wrote, as the unit tests'
// `FixtureSet` reads it, or its copy in the test bundle.
extension MockServer {
    /// Serves every fixture below `directory` (`contract fixtures --out DIR`).
    /// - Throws: ``MockServerError/Code/invalidFixture`` for a folder without fixtures, a file
    ///   that is not JSON or not a fixture, or one written by another version of `contract`.
    /// - Parameter usage: where the requests answered are recorded (``MockServer/usage``).
    public convenience init(
        fixturesIn directory: String, options: Options = Options(), onRequest: (@Sendable (Received) -> Void)? = nil,
        usage: UsageRecorder? = MockServer.usageFromEnvironment
    ) throws(MockServerError) {
        self.init(fixtures: try Self.readFixtures(in: directory), options: options, onRequest: onRequest, usage: usage)
    }

    /// Serves the fixtures copied into a bundle (`resources: [.copy("Fixtures")]`, then `Bundle.module`).
    public convenience init(
        bundle: Bundle, subdirectory: String = "Fixtures", options: Options = Options(), onRequest: (@Sendable (Received) -> Void)? = nil,
        usage: UsageRecorder? = MockServer.usageFromEnvironment
    ) throws(MockServerError) {
        guard let url = bundle.resourceURL?.appendingPathComponent(subdirectory) else {
            throw MockServerError(.invalidFixture, "the bundle has no resources folder '\(subdirectory)'")
        }
        try self.init(fixturesIn: url.path, options: options, onRequest: onRequest, usage: usage)
    }

    /// Every fixture below `directory`, in the order of their paths; the manifest is not one.
    static func readFixtures(in directory: String) throws(MockServerError) -> [FixtureFile] {
        let root = URL(fileURLWithPath: directory)
        var paths: [String] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "json", url.lastPathComponent != "contract-fixtures.json" { paths.append(url.path) }
        }
        guard !paths.isEmpty else {
            throw MockServerError(.invalidFixture, "no fixtures in \(directory); run 'contract fixtures --out \(directory) CONTRACTS'")
        }
        var endpoints: [String: RequestDescription] = [:]
        var fixtures: [FixtureFile] = []
        for path in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: path) else { throw MockServerError(.invalidFixture, "\(path) cannot be read") }
            do {
                let json = try JSONParser().parse(Array(data)).value
                fixtures.append(try FixtureFile(json: json, file: path, reader: "ContractMockServer", endpoints: &endpoints))
            } catch let error as JSONSyntaxError {
                throw MockServerError(.invalidFixture, "\(path):\(error.location.line):\(error.location.column): not JSON: \(error.message)")
            } catch {
                throw MockServerError(.invalidFixture, "\(error)")
            }
        }
        return fixtures
    }
}
