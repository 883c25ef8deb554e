import ContractJSON
import ContractRequests
import Foundation

/// One fixture written by `contract fixtures`: the request a case sends, the response it
/// accepts, and what any request to its endpoint must be (``endpoint``), which the stub holds
/// every request it answers to.
public struct StubFixture: Sendable, Equatable {
    /// The fixture format this `ContractTesting` reads; an older file says to write them again.
    public static let formatVersion = FixtureFile.formatVersion

    public var contract: String { didSet { route = makeRoute() } }
    public var caseName: String { didSet { route = makeRoute() } }
    public var method: String { didSet { route = makeRoute() } }
    /// `/api/products/{id}`.
    public var pathTemplate: String { didSet { route = makeRoute() } }
    public var query: [URLQueryItem] { didSet { route = makeRoute() } }
    public var status: Int { didSet { route = makeRoute() } }
    public var headers: [String: String]
    public var body: Data?
    /// What any request to the endpoint must be: parameters, headers, body.
    public var endpoint: RequestDescription {
        check.description
    }

    /// The endpoint's checker, compiled on the first request and shared by the endpoint's fixtures.
    let check: EndpointCheck
    /// The fixture as its set routes it: made when it is read, and again only when a field it
    /// depends on changes, so a set made per test (from changed copies) costs no routing work.
    private(set) var route: Route

    private func makeRoute() -> Route {
        Route(
            contract: contract, caseName: caseName, method: method, pathTemplate: pathTemplate,
            query: query.map { Route.QueryItem(name: $0.name, value: $0.value) }, status: status,
            describedQuery: endpoint.describedQuery)
    }

    /// `products.get/found`.
    public var name: String { "\(contract)/\(caseName)" }

    public static func == (lhs: StubFixture, rhs: StubFixture) -> Bool {
        lhs.contract == rhs.contract && lhs.caseName == rhs.caseName && lhs.method == rhs.method && lhs.pathTemplate == rhs.pathTemplate
            && lhs.query == rhs.query && lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.endpoint == rhs.endpoint
    }

    /// Reads a fixture file's JSON (with ``FixtureFile``, the one reader the mock server shares);
    /// `checks` shares one checker per endpoint among a set's fixtures.
    init(json: JSONValue, file: String, checks: inout [String: EndpointCheck], endpoints: inout [String: RequestDescription]) throws(FixtureLoadError) {
        let read: FixtureFile
        do {
            read = try FixtureFile(json: json, file: file, reader: "ContractTesting", endpoints: &endpoints)
        } catch {
            throw FixtureLoadError(error.kind == .outdated ? .outdatedFixture : .invalidFixture, error.description, file: error.file)
        }
        contract = read.contract
        caseName = read.caseName
        method = read.method
        pathTemplate = read.pathTemplate
        query = read.query.map { URLQueryItem(name: $0.name, value: $0.value) }
        status = read.status
        var headers: [String: String] = [:]
        for header in read.headers { headers[header.name] = header.value }
        self.headers = headers
        body = read.body.map { Data($0) }
        let key = "\(read.contract)\u{0}\(read.source)"
        if let shared = checks[key] {
            check = shared
        } else {
            check = EndpointCheck(read.endpoint, source: read.source)
            checks[key] = check
        }
        route = read.route
    }
}

/// Why fixtures could not be loaded, or a stub made: a ``code`` to tell the reasons apart, the
/// ``file`` (or folder) concerned, and the explanation as ``description``.
///
/// A struct with a ``Code`` rather than an enum, so a reason added later breaks no `switch`.
public struct FixtureLoadError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// Which reason, without its values: compare with `==` (`error.code == .noFixtures`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case noFixtures
            case noResourcesFolder
            case unreadableFile
            case invalidFixture
            case outdatedFixture
            case tooManyStubs
        }

        fileprivate let base: Base

        /// The folder has no fixture files (``FixtureLoadError/file`` is the folder).
        public static let noFixtures = Code(base: .noFixtures)
        /// The bundle has no resources folder of that name.
        public static let noResourcesFolder = Code(base: .noResourcesFolder)
        /// A file cannot be read, or is not JSON.
        public static let unreadableFile = Code(base: .unreadableFile)
        /// A JSON file is not a fixture written by `contract fixtures`, or one of its fields is wrong.
        public static let invalidFixture = Code(base: .invalidFixture)
        /// The file was written by another version of `contract fixtures` (an older fixture format):
        /// the message says to run it again.
        public static let outdatedFixture = Code(base: .outdatedFixture)
        /// ``StubSlots/capacity`` stubs are alive already, so no other can be made.
        public static let tooManyStubs = Code(base: .tooManyStubs)

        public var description: String { base.rawValue }
    }

    public let code: Code
    /// The file, or the folder, the error concerns; nil when there is none.
    public let file: String?
    /// The whole explanation, as printed.
    public var description: String

    public var errorDescription: String? { description }

    init(_ code: Code, _ description: String, file: String? = nil) {
        self.code = code
        self.description = description
        self.file = file
    }
}

/// The fixtures of a folder (`contract fixtures --out DIR`) or of a bundle's resources.
public struct FixtureSet: Sendable {
    public var fixtures: [StubFixture] {
        didSet { routes = Self.routes(of: fixtures) }
    }

    /// The fixtures as routes, in the same order: made once per set, shared by its stubs.
    private(set) var routes: RouteTable

    public init(fixtures: [StubFixture]) {
        self.fixtures = fixtures
        routes = Self.routes(of: fixtures)
    }

    static func routes(of fixtures: [StubFixture]) -> RouteTable {
        RouteTable(fixtures.map(\.route))
    }

    /// Every `*.json` below `directory` except the manifest.
    public init(directory: URL) throws(FixtureLoadError) {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var urls: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "json", url.lastPathComponent != "contract-fixtures.json" { urls.append(url) }
        }
        guard !urls.isEmpty else {
            throw FixtureLoadError(.noFixtures, "no fixtures in \(directory.path); run 'contract fixtures --out \(directory.path)'", file: directory.path)
        }
        var fixtures: [StubFixture] = []
        var checks: [String: EndpointCheck] = [:]
        var endpoints: [String: RequestDescription] = [:]
        for url in urls.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: url) else {
                throw FixtureLoadError(.unreadableFile, "\(url.path) cannot be read", file: url.path)
            }
            let json: JSONValue
            do {
                json = try JSONParser().parse(Array(data)).value
            } catch {
                throw FixtureLoadError(
                    .unreadableFile, "\(url.path):\(error.location.line):\(error.location.column): not JSON: \(error.message)", file: url.path)
            }
            fixtures.append(try StubFixture(json: json, file: url.path, checks: &checks, endpoints: &endpoints))
        }
        self.fixtures = fixtures
        routes = Self.routes(of: fixtures)
    }

    /// The fixtures copied into a bundle (`resources: [.copy("Fixtures")]`, then `Bundle.module`).
    public init(bundle: Bundle, subdirectory: String = "Fixtures") throws(FixtureLoadError) {
        guard let url = bundle.resourceURL?.appendingPathComponent(subdirectory) else {
            throw FixtureLoadError(.noResourcesFolder, "the bundle has no resources folder '\(subdirectory)'", file: subdirectory)
        }
        do {
            try self.init(directory: url)
        } catch where error.code == .outdatedFixture {
            // The folder named would be the build's copy, overwritten by the next build: name the
            // one it is copied from.
            var error = error
            if let run = error.description.range(of: "run 'contract fixtures --out ") {
                error.description = String(error.description[..<run.lowerBound])
                    + "this bundle's '\(subdirectory)' is a copy of your test target's folder: write that one again "
                    + "('contract fixtures --out Tests/YourTests/\(subdirectory) CONTRACTS') and build"
            }
            throw error
        }
    }
}
