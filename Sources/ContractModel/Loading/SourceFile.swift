import ContractJSON

/// A file of the contracts tree, read into memory so every later stage is pure.
public struct SourceFile: Sendable, Hashable {
    /// The path as shown in diagnostics: the directory as the user gave it, joined with the relative path.
    public var path: String
    /// The path relative to the contracts directory, with `/` separators.
    public var relativePath: String
    public var bytes: [UInt8]
    /// Why the file could not be read, when it could not.
    public var readError: String?

    public init(path: String, relativePath: String, bytes: [UInt8], readError: String? = nil) {
        self.path = path
        self.relativePath = relativePath
        self.bytes = bytes
        self.readError = readError
    }

    /// Files inside a folder named `schemas` hold shared schemas; every other `.json` file is a contract.
    public var isSchemaDocument: Bool {
        Self.isSchemaPath(relativePath)
    }

    /// The tree's settings file, `contract.json` at its root: neither a contract nor a schema.
    public var isTreeSettings: Bool {
        relativePath == TreeSettings.fileName
    }

    static func isSchemaPath(_ relativePath: String) -> Bool {
        relativePath.split(separator: "/").dropLast().contains("schemas")
    }
}
