import ContractJSON
import ContractSchema

/// The settings of a contracts tree, read from the optional file `contract.json` at its root
/// (``fileName``). They hold for every command that loads the tree: lint, verify, fixtures.
public struct TreeSettings: Sendable, Hashable {
    /// The settings file's path relative to the tree: only the root's file of that name is
    /// settings; a `contract.json` in a subfolder is a contract like any other file.
    public static let fileName = "contract.json"

    /// Whether `format` asserts (a string that is no `date-time` fails validation) or only
    /// annotates, as the JSON Schema specifications have it by default. On unless the tree turns it
    /// off; `contract verify --no-format-assertion` turns it off for one run whatever the tree says.
    public var formatAssertion: Bool

    /// Folders of shared schema files published under a URI: the file `<folder>/<rest>` is the
    /// document at `<uri><rest>`, so a `$ref` to that URI reads the file and nothing is ever fetched.
    public var schemaURIs: [SchemaFolder]

    /// A folder of shared schema files and the URI its files are published under.
    public struct SchemaFolder: Sendable, Hashable {
        /// Relative to the tree, without a trailing `/`; inside a folder named `schemas`.
        public var folder: String
        /// An absolute URI ending with `/`, without query or fragment.
        public var uri: String

        /// The key as the settings file writes it (`schemas/acme/`), for locating diagnostics.
        var key: String

        public init(folder: String, uri: String) {
            self.init(folder: folder, uri: uri, key: folder)
        }

        init(folder: String, uri: String, key: String) {
            self.folder = folder
            self.uri = uri
            self.key = key
        }
    }

    public init(formatAssertion: Bool = true, schemaURIs: [SchemaFolder] = []) {
        self.formatAssertion = formatAssertion
        self.schemaURIs = schemaURIs
    }

    /// The URIs the shared schema file `relativePath` is published under by ``schemaURIs``, in the
    /// order the settings list them.
    public func publishedURIs(ofSchemaFile relativePath: String) -> [String] {
        schemaURIs.compactMap { entry in
            relativePath.hasPrefix(entry.folder + "/") ? entry.uri + relativePath.dropFirst(entry.folder.utf8.count + 1) : nil
        }
    }

    static let keys = ["formatAssertion", "schemaURIs"]
}

extension DocumentDecoder {
    /// Decodes the tree's settings file; what is wrong is reported and left at its default.
    mutating func decodeSettings() -> TreeSettings {
        var settings = TreeSettings()
        for duplicate in document.duplicateKeys {
            error(
                "duplicate key '\(duplicate.key)', first at line \(duplicate.firstLocation.line), column \(duplicate.firstLocation.column); JSON readers disagree on which value wins",
                at: duplicate.pointer, atKey: true)
        }
        if let object = root.value.objectValue, ["id", "request", "cases"].contains(where: { object[$0] != nil }) {
            error(
                "'\(TreeSettings.fileName)' at the root of the tree holds the tree's settings (\(TreeSettings.keys.map { "'\($0)'" }.joined(separator: ", "))), not a contract: give this contract another file name",
                at: .root)
            return settings
        }
        guard let fields = object(root, "the tree settings", allowed: TreeSettings.keys) else { return settings }
        if let value = bool(fields["formatAssertion"], "formatAssertion") { settings.formatAssertion = value }
        if let field = fields["schemaURIs"] { settings.schemaURIs = decodeSchemaURIs(field) }
        return settings
    }

    private mutating func decodeSchemaURIs(_ field: Field) -> [TreeSettings.SchemaFolder] {
        guard field.value.objectValue != nil else {
            error("'schemaURIs' must be an object from a folder of shared schemas to the URI its files are published under, found \(describe(field.value))",
                at: field.pointer)
            return []
        }
        var result: [TreeSettings.SchemaFolder] = []
        var folderOfURI: [String: String] = [:]
        for (key, member) in field.members {
            var folder = key
            while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
            let segments = folder.split(separator: "/", omittingEmptySubsequences: false)
            if folder.isEmpty || folder.hasPrefix("/") || folder.contains("\\") || segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                error("'schemaURIs' names folders by their path inside the tree, such as 'schemas/acme', found '\(key)'", at: member.pointer, atKey: true)
                continue
            }
            if !segments.contains("schemas") {
                error("'\(key)' is not inside a folder named 'schemas': the files there are contracts, not shared schemas", at: member.pointer, atKey: true)
                continue
            }
            guard let text = member.value.stringValue else {
                error("the URI of '\(key)' must be a string, found \(describe(member.value))", at: member.pointer)
                continue
            }
            let uri = URIReference(parsing: text)
            if uri.scheme == nil || uri.scheme == "file" || uri.query != nil || uri.fragment != nil || !text.hasSuffix("/") {
                error(
                    "the URI of '\(key)' must be an absolute URI other than 'file:' that ends with '/' and has no query or fragment, such as 'https://schemas.example.com/', found \(describe(member.value))",
                    at: member.pointer)
                continue
            }
            if let other = folderOfURI[text] {
                error("'\(key)' and '\(other)' are both published under '\(text)': a URI names one file", at: member.pointer)
                continue
            }
            folderOfURI[text] = key
            result.append(TreeSettings.SchemaFolder(folder: folder, uri: text, key: key))
        }
        return result
    }
}
