/// Whether a contract id or a case name can be part of a fixture's path on every platform.
///
/// `contract fixtures --out DIR` writes `DIR/<id>/<case>.json` beside its manifest
/// `DIR/contract-fixtures.json`, and the fixtures are committed and checked out on Linux, macOS
/// and Windows. Identifiers (ASCII letters, digits, `.`, `_`, `-`, starting with a letter or
/// digit) already keep out separators, hidden names and characters a file system refuses; this
/// is what is left. Lint reports these problems and the OpenAPI import avoids them: one rule for both.
public enum FixturePathName {
    /// What the name becomes: a folder (`<id>`) or a file (`<case>.json`).
    public enum Kind: Sendable {
        case contractID
        case caseName
    }

    public enum Problem: Sendable, Equatable {
        /// CON, PRN, AUX, NUL, COM0-9 or LPT0-9 before the first `.`, in any case: Windows opens
        /// the device instead of the file (`nul.json` too).
        case windowsDevice
        /// A `contract-fixtures.json` folder, or a case whose file has that name, would be taken
        /// for the manifest (in any case, since macOS and Windows ignore case).
        case manifestName
        /// Windows drops a trailing `.`, so `a.` and `a` would be one file.
        case trailingDot
        /// Longer than `maximumLength`.
        case tooLong(length: Int)
    }

    /// File names are at most 255 bytes almost everywhere; 200 leaves room for `.json` and for
    /// the staging name around it (`.<case>.json.contract-tmp`, about 20 bytes more).
    public static let maximumLength = 200

    /// The manifest `contract fixtures` writes at the top of its folder.
    public static let manifestFileName = "contract-fixtures.json"

    static let windowsDevices: Set<String> = Set(["con", "prn", "aux", "nul"] + (0...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// The first reason `name`, an identifier, cannot be a fixture's folder or file name, or nil.
    public static func problem(with name: String, as kind: Kind) -> Problem? {
        let folded = collisionKey(name)
        let stem = folded.prefix { $0 != "." }
        if windowsDevices.contains(String(stem)) { return .windowsDevice }
        if fileName(folded, as: kind) == manifestFileName { return .manifestName }
        if name.hasSuffix(".") { return .trailingDot }
        // Identifiers are ASCII, so bytes and characters agree; file systems count bytes.
        if name.utf8.count > maximumLength { return .tooLong(length: name.utf8.count) }
        return nil
    }

    /// Two names with the same key are one file or folder on file systems that ignore case
    /// (macOS and Windows by default).
    public static func collisionKey(_ name: String) -> String {
        name.lowercased()
    }

    /// The name on disk: a case is its name and `.json`.
    static func fileName(_ name: String, as kind: Kind) -> String {
        switch kind {
        case .contractID: return name
        case .caseName: return name + ".json"
        }
    }

    /// The name whose fixture file is the manifest's name: the one a case name must not be.
    static var manifestCaseName: String {
        String(manifestFileName.dropLast(".json".count))
    }
}

extension FixturePathName.Problem {
    /// A lint message: `key` is the field ('id', 'name'), `found` the value as shown.
    func message(for key: String, as kind: FixturePathName.Kind, found: String) -> String {
        switch self {
        case .windowsDevice:
            return "'\(key)' must not be a name Windows reserves for a device (CON, PRN, AUX, NUL, COM0-9, LPT0-9), with or without an extension, found \(found)"
        case .manifestName where kind == .contractID:
            return "'\(key)' must not be \"\(FixturePathName.manifestFileName)\" in any case: the fixtures folder keeps that name for its manifest, found \(found)"
        case .manifestName:
            return "'\(key)' must not be \"\(FixturePathName.manifestCaseName)\" in any case: its fixture file would have the fixtures manifest's name, found \(found)"
        case .trailingDot:
            return "'\(key)' must not end with '.' (Windows drops it, so \"a.\" and \"a\" would be one file), found \(found)"
        case .tooLong(let length):
            return "'\(key)' must be at most \(FixturePathName.maximumLength) characters long, so that its fixture's path fits every file system, found \(length) characters"
        }
    }
}
