import ContractFiles
import ContractJSON
import ContractModel

/// `contract-fixtures.json` in the output folder: which files `contract fixtures` owns, and what
/// each was built from. Files it does not list are never overwritten or deleted.
public struct FixtureManifest: Sendable, Equatable {
    public static let fileName = FixturePathName.manifestFileName

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
            .init(key: "format", value: "contract-fixtures-manifest"),
            .init(key: "version", value: .number(JSONNumber(FixturePlanner.formatVersion))),
            .init(key: "fixtures", value: .array(fixtures)),
        ]))
        return Array((CanonicalJSONWriter(style: .pretty).string(document) + "\n").utf8)
    }

    /// Reads a manifest; the error names `file`, the line, column and JSON Pointer of what is
    /// wrong. A path that is not inside the folder (`../x`, `/etc/passwd`) refuses the whole
    /// manifest: a hostile one must not make a run delete files elsewhere.
    public init(parsing bytes: [UInt8], file: String = fileName) throws(FixtureStoreError) {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            throw FixtureStoreError(
                file: file, location: error.location, message: "not valid JSON: \(error.message); delete it only if no other tool wrote the folder")
        }
        func failure(_ message: String, at pointer: JSONPointer) -> FixtureStoreError {
            let location = document.nearestLocation(of: pointer)
            return FixtureStoreError(file: file, location: location, pointer: pointer, message: message)
        }
        let root = JSONPointer(tokens: [])
        guard document.value.objectValue?["format"]?.stringValue == "contract-fixtures-manifest",
            let list = document.value.objectValue?["fixtures"]?.arrayValue
        else {
            throw failure("not a contract fixtures manifest (expected \"format\": \"contract-fixtures-manifest\" and a \"fixtures\" array)", at: root)
        }
        var entries: [Entry] = []
        for (index, item) in list.enumerated() {
            let at = JSONPointer(tokens: ["fixtures", String(index)])
            func field(_ name: String) throws(FixtureStoreError) -> String {
                guard let text = item.objectValue?[name]?.stringValue else { throw failure("an entry has no string '\(name)'", at: at) }
                return text
            }
            let path = try field("path")
            do {
                _ = try FolderPath(validating: path)
            } catch {
                throw failure("\(error); a manifest lists only files inside its folder, so this one is refused", at: at.appending("path"))
            }
            entries.append(Entry(
                path: path, contractID: try field("contract"), caseName: try field("case"), source: try field("source"),
                sourceHash: try field("sourceHash"), contentHash: try field("contentHash")))
        }
        self.entries = entries
    }
}

/// Why the fixtures folder was refused or could not be read or changed; it is as it was.
public struct FixtureStoreError: Error, Sendable, CustomStringConvertible {
    /// The problem, placed in the manifest (file, line, column and pointer) when it is there, else
    /// without a file.
    public var diagnostic: Diagnostic
    /// The cause, when the folder could not be read or changed: a `FolderError`, whose own
    /// `underlying` is the system's error (`ENOSPC`, `EACCES`…). The message already says it.
    public var underlying: (any Error)?

    init(_ message: String, underlying: (any Error)? = nil) {
        diagnostic = .argumentError(message)
        self.underlying = underlying
    }

    init(file: String, location: SourceLocation?, pointer: JSONPointer? = nil, message: String) {
        diagnostic = .error(message, file: file, location: location, pointer: pointer)
    }

    /// The line to print, compiler-style.
    public var description: String { diagnostic.rendered }
}
