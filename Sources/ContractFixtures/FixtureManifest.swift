import ContractJSON

/// `contract-fixtures.json` in the output folder: which files `contract fixtures` owns, and what
/// each was built from. Files it does not list are never overwritten or deleted.
public struct FixtureManifest: Sendable, Equatable {
    public static let fileName = "contract-fixtures.json"

    public struct Entry: Sendable, Equatable {
        public var path: String
        public var contractID: String
        public var caseName: String
        public var source: String
        public var sourceHash: String
        public var contentHash: String
    }

    public var entries: [Entry]

    public init(_ fixtures: [Fixture]) {
        entries = fixtures.map {
            Entry(path: $0.path, contractID: $0.contractID, caseName: $0.caseName, source: $0.source, sourceHash: $0.sourceHash, contentHash: $0.contentHash)
        }.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// The entries by path, for looking many up.
    public var entriesByPath: [String: Entry] {
        Dictionary(entries.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var bytes: [UInt8] {
        let fixtures: [JSONValue] = entries.map { entry in
            .object(JSONObject([
                .init(key: "path", value: .string(entry.path)), .init(key: "contract", value: .string(entry.contractID)),
                .init(key: "case", value: .string(entry.caseName)), .init(key: "source", value: .string(entry.source)),
                .init(key: "sourceHash", value: .string(entry.sourceHash)), .init(key: "contentHash", value: .string(entry.contentHash)),
            ]))
        }
        let document: JSONValue = .object(JSONObject([
            .init(key: "format", value: "contract-fixtures-manifest"), .init(key: "version", value: 1),
            .init(key: "fixtures", value: .array(fixtures)),
        ]))
        return Array((CanonicalJSONWriter(style: .pretty).string(document) + "\n").utf8)
    }

    /// Reads a manifest; the error says what is wrong with it.
    public init(parsing bytes: [UInt8]) throws(FixtureStoreError) {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes).value
        } catch {
            throw FixtureStoreError("\(Self.fileName) is not valid JSON (\(error)); delete it only if no other tool wrote the folder")
        }
        guard value.objectValue?["format"]?.stringValue == "contract-fixtures-manifest", let list = value.objectValue?["fixtures"]?.arrayValue else {
            throw FixtureStoreError("\(Self.fileName) is not a contract fixtures manifest")
        }
        entries = try list.map { item throws(FixtureStoreError) in
            let object = item.objectValue
            func field(_ name: String) throws(FixtureStoreError) -> String {
                guard let text = object?[name]?.stringValue else { throw FixtureStoreError("\(Self.fileName): an entry has no '\(name)'") }
                return text
            }
            return Entry(
                path: try field("path"), contractID: try field("contract"), caseName: try field("case"), source: try field("source"),
                sourceHash: try field("sourceHash"), contentHash: try field("contentHash"))
        }
    }
}

public struct FixtureStoreError: Error, Sendable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
