import Foundation

/// One fixture written by `contract fixtures`: the request a case sends and the response it
/// accepts. Read with Foundation alone, so test targets link nothing else.
public struct StubFixture: Sendable, Equatable {
    public var contract: String
    public var caseName: String
    public var method: String
    /// `/api/products/{id}`.
    public var pathTemplate: String
    public var query: [URLQueryItem]
    public var status: Int
    public var headers: [String: String]
    public var body: Data?

    /// `products.get/found`.
    public var name: String { "\(contract)/\(caseName)" }

    init(json: [String: Any], file: String) throws(FixtureLoadError) {
        guard let contract = json["contract"] as? String, let caseName = json["case"] as? String,
            let request = json["request"] as? [String: Any], let response = json["response"] as? [String: Any],
            let method = request["method"] as? String, let template = request["pathTemplate"] as? String,
            let status = response["status"] as? Int
        else { throw FixtureLoadError(.invalidFixture, "\(file) is not a fixture written by contract fixtures", file: file) }
        self.contract = contract
        self.caseName = caseName
        self.method = method
        pathTemplate = template
        query = (request["query"] as? [[String: String]] ?? []).map { URLQueryItem(name: $0["name"] ?? "", value: $0["value"]) }
        self.status = status
        var headers: [String: String] = [:]
        for pair in response["headers"] as? [[String: String]] ?? [] {
            if let name = pair["name"], let value = pair["value"] { headers[name] = value }
        }
        self.headers = headers
        if let json = response["body"] {
            // A body that cannot be written back as JSON is an error that names the case, never a
            // fixture served without its body. Checked first: on Apple platforms, writing an
            // invalid object (NaN, a non-JSON type) raises an exception rather than throwing.
            let cannot = "\(file): the response body of \(contract)/\(caseName) cannot be written as JSON"
            guard JSONSerialization.isValidJSONObject([json]) else { throw FixtureLoadError(.invalidFixture, cannot, file: file) }
            do {
                body = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
            } catch {
                throw FixtureLoadError(.invalidFixture, "\(cannot): \(error.localizedDescription)", file: file)
            }
        } else if let text = response["text"] as? String {
            body = Data(text.utf8)
        } else if let base64 = response["base64"] as? String {
            // Binary bodies, and text in a charset other than UTF-8, are written as their bytes.
            guard let bytes = Data(base64Encoded: base64) else {
                throw FixtureLoadError(.invalidFixture, "\(file): the response's 'base64' is not base64", file: file)
            }
            body = bytes
        } else {
            body = nil
        }
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
    public var fixtures: [StubFixture]

    public init(fixtures: [StubFixture]) {
        self.fixtures = fixtures
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
        for url in urls.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: url), let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw FixtureLoadError(.unreadableFile, "\(url.path) cannot be read as JSON", file: url.path)
            }
            fixtures.append(try StubFixture(json: json, file: url.path))
        }
        self.fixtures = fixtures
    }

    /// The fixtures copied into a bundle (`resources: [.copy("Fixtures")]`, then `Bundle.module`).
    public init(bundle: Bundle, subdirectory: String = "Fixtures") throws(FixtureLoadError) {
        guard let url = bundle.resourceURL?.appendingPathComponent(subdirectory) else {
            throw FixtureLoadError(.noResourcesFolder, "the bundle has no resources folder '\(subdirectory)'", file: subdirectory)
        }
        try self.init(directory: url)
    }
}
