import ContractFiles
import ContractJSON
import ContractModel
import Foundation

/// An OpenAPI document as read: its values, where each is in the file, and its version.
struct OpenAPIDocument {
    enum Version {
        case v30, v31, v32

        /// Schemas of 3.0 are their own dialect (`nullable`, boolean `exclusiveMinimum`…); 3.1's and 3.2's are 2020-12.
        var isDraft2020: Bool { self != .v30 }
    }

    /// The document's path as shown in diagnostics.
    let file: String
    let root: JSONObject
    let version: Version
    /// What reading found wrong but the import can go on without (references to nowhere).
    private(set) var warnings: [Diagnostic] = []
    /// Where a value is in the file: YAML's marks, or the JSON parser's source map, which computes
    /// a line and column only when asked (a diagnostic), not for every value up front.
    private let locate: @Sendable (JSONPointer) -> SourceLocation?
    /// The other files the document refers to, bundled under `/x-contract-files`.
    private let external: ExternalReferences

    /// The paths of the other files read (links resolved), in no particular order.
    var otherFilePaths: [String] { external.paths }
    /// Where a pointer of the document as read was in the document as written: a 2.0 document
    /// (and its other files) is read converted to 3.0.
    private let origin: @Sendable (JSONPointer) -> JSONPointer

    /// A parsed file: its value, and where each value is in it.
    typealias Parsed = (value: JSONValue, locate: @Sendable (JSONPointer) -> SourceLocation?)

    /// The largest file the import reads: published descriptions run to a few megabytes (the
    /// largest of the shared corpus is 4.2 MB; GitHub's whole REST description, dereferenced,
    /// about 30), and a YAML document takes about ten times its size in memory while it is read.
    static let maxFileBytes = 64 << 20
    /// The most a document and all its other files may hold together.
    static let maxTotalBytes = 256 << 20

    /// Reads and parses one YAML or JSON file of at most `limit` bytes; the error is located in it.
    static func parse(path: String, shownAs file: String, limit: Int = maxFileBytes) throws(DiagnosticsError) -> Parsed {
        func fail(_ message: String, at location: SourceLocation?) -> DiagnosticsError {
            DiagnosticsError([.error(message, file: file, location: location)])
        }
        // The only errors without a position: a file that cannot be read has no text to point into.
        let bytes: [UInt8]
        switch InputFile.read(path, limit: limit) {
        case .success(let read): bytes = read
        case .failure(.tooLarge):
            let most = limit < maxFileBytes
                ? "\(InputFile.describe(bytes: maxTotalBytes)) in all with its other files"
                : "\(InputFile.describe(bytes: maxFileBytes)) a file"
            throw fail("the file is too large: the import reads at most \(most)", at: nil)
        case .failure(let failure): throw fail("cannot read the file: \(InputFile.reason(failure))", at: nil)
        }
        // Decoded without Foundation's help, which may drop a byte order mark: the text's UTF-8 is
        // then the file's bytes, and offsets in one are offsets in the other.
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let offset = firstInvalidUTF8Offset(in: bytes)
            throw fail(
                "the file is not UTF-8 text: byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) is not valid UTF-8",
                at: SourceText(bytes, indexLines: false).location(ofOffset: offset))
        }
        let isJSON = text.unicodeScalars.first { !$0.properties.isWhitespace && $0 != "\u{FEFF}" } == "{"
        if isJSON {
            do {
                let document = try JSONParser().parse(bytes)
                return (document.value, { document.location(of: $0) })
            } catch {
                // YAML's flow style starts with `{` too (`{type: string}`): JSON's error stands only
                // when the text is no YAML either.
                guard let (value, map) = try? YAMLReader.read(text) else { throw fail("invalid JSON: \(error.message)", at: error.location) }
                return (value, { [value] in map.location(of: $0, in: value) })
            }
        }
        do {
            let (value, map) = try YAMLReader.read(text)
            return (value, { [value] in map.location(of: $0, in: value) })
        } catch {
            throw fail(error.message, at: error.location)
        }
    }

    static func read(path: String, shownAs file: String) throws(DiagnosticsError) -> OpenAPIDocument {
        func fail(_ message: String, at location: SourceLocation?) -> DiagnosticsError {
            DiagnosticsError([.error(message, file: file, location: location)])
        }
        let (value, parsedLocate) = try parse(path: path, shownAs: file)
        var locate = parsedLocate
        guard case .object(var root) = value else {
            throw fail("an OpenAPI document is an object, found \(value.typeName)", at: locate(.root))
        }
        let isSwagger2 = root["swagger"]?.stringValue == "2.0"
        // Checked first, so a document of another kind is refused before its other files are read.
        if !isSwagger2 { _ = try Self.version(of: root, locate: locate, file: file) }
        var external = ExternalReferences(rootPath: path, shownAs: file, locate: locate)
        root = external.bundle(root)
        var origin: @Sendable (JSONPointer) -> JSONPointer = { $0 }
        if isSwagger2 {
            // After bundling, so the other files are converted with the document, and a reference
            // from them back into it (`../swagger.yaml#/definitions/Pet`) is moved with the rest.
            var converter = Swagger2Converter()
            root = converter.convert(root)
            let original = locate
            let mapping = converter
            origin = { mapping.origin(of: $0) }
            locate = { original(mapping.origin(of: $0)) }
        }
        let version = try Self.version(of: root, locate: locate, file: file)
        var document = OpenAPIDocument(file: file, root: root, version: version, locate: locate, origin: origin, external: external)
        document.warnings = external.warnings + document.referenceProblems()
        if isSwagger2 {
            document.warnings.append(document.note("Swagger 2.0 is read as the OpenAPI 3.0 document it describes", at: JSONPointer(tokens: ["openapi"])))
        }
        if version == .v32 {
            document.warnings.append(document.note(
                "OpenAPI 3.2 is read as 3.1: what 3.2 adds (the QUERY method, additionalOperations, streamed media types) is not imported",
                at: JSONPointer(tokens: ["openapi"])))
        }
        return document
    }

    /// Where the first byte that is not UTF-8 is: the start of the first sequence that does not decode.
    private static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int {
        var decoder = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = decoder.parseScalar(from: &iterator) {
            offset += scalar.count
        }
        return min(offset, max(bytes.count - 1, 0))
    }

    /// Which file `pointer` is in, where in it (or its nearest ancestor with a known position),
    /// and the pointer as that file knows it: values of other files are bundled under
    /// `/x-contract-files`, but warnings point into the file they were read from.
    func place(of pointer: JSONPointer) -> (file: String, location: SourceLocation?, pointer: JSONPointer) {
        if pointer.tokens.first == ExternalReferences.area, let (file, locate, inner) = external.place(of: origin(pointer)) {
            return (file, Self.nearest(inner, in: locate), inner)
        }
        return (file, location(of: pointer), pointer)
    }

    /// Where `pointer` (or its nearest ancestor with a known position) is in the root file.
    func location(of pointer: JSONPointer) -> SourceLocation? {
        Self.nearest(pointer, in: locate)
    }

    /// The position of `pointer`, or of its nearest ancestor that has one.
    static func nearest(_ pointer: JSONPointer, in locate: (JSONPointer) -> SourceLocation?) -> SourceLocation? {
        sequence(first: pointer, next: \.parent).lazy.compactMap(locate).first
    }

    func warning(_ message: String, at pointer: JSONPointer) -> Diagnostic {
        let place = place(of: pointer)
        return .warning(message, file: place.file, location: place.location, pointer: place.pointer)
    }

    func note(_ message: String, at pointer: JSONPointer) -> Diagnostic {
        let place = place(of: pointer)
        return Diagnostic(severity: .note, message: message, file: place.file, location: place.location, pointer: place.pointer)
    }

    /// The value at a local reference (`#/components/…`).
    func value(at pointer: JSONPointer) -> JSONValue? {
        JSONValue.object(root)[pointer: pointer]
    }

    /// Follows `$ref` until a value that is not a reference: parameters, responses and request
    /// bodies may all be references. Returns the value and where it is.
    func resolved(_ value: JSONValue, at pointer: JSONPointer) -> (JSONObject, JSONPointer)? {
        var value = value
        var pointer = pointer
        for _ in 0..<32 {
            guard case .object(let object) = value else { return nil }
            guard let reference = object["$ref"]?.stringValue else { return (object, pointer) }
            guard let target = Self.localPointer(reference), let next = self.value(at: target) else { return nil }
            (value, pointer) = (next, target)
        }
        return nil
    }

    static func localPointer(_ reference: String) -> JSONPointer? {
        guard reference.hasPrefix("#") else { return nil }
        return try? JSONPointer(uriFragment: String(reference.dropFirst()))
    }

    private init(
        file: String, root: JSONObject, version: Version, locate: @escaping @Sendable (JSONPointer) -> SourceLocation?,
        origin: @escaping @Sendable (JSONPointer) -> JSONPointer, external: ExternalReferences
    ) {
        self.file = file
        self.root = root
        self.version = version
        self.locate = locate
        self.origin = origin
        self.external = external
    }

    private static func version(of root: JSONObject, locate: (JSONPointer) -> SourceLocation?, file: String) throws(DiagnosticsError) -> Version {
        if let swagger = root["swagger"] {
            throw DiagnosticsError([.error(
                "Swagger \(MessageText.oneLine(swagger.stringValue ?? "2.0")) documents are not supported: convert the document to OpenAPI 3 first (for example with swagger2openapi)",
                file: file, location: locate(JSONPointer(tokens: ["swagger"])), pointer: JSONPointer(tokens: ["swagger"]))])
        }
        let pointer = JSONPointer(tokens: ["openapi"])
        guard let field = root["openapi"] else {
            throw DiagnosticsError([.error("not an OpenAPI document: the 'openapi' version string is missing", file: file, location: locate(.root))])
        }
        guard let text = field.stringValue else {
            // `openapi: 3.1` in YAML is a number; the version is a string of three parts.
            throw DiagnosticsError([.error(
                "the 'openapi' version must be a string such as '3.1.0', found \(field.typeName)", file: file, location: locate(pointer), pointer: pointer)])
        }
        if text.hasPrefix("3.0.") { return .v30 }
        if text.hasPrefix("3.1.") { return .v31 }
        // 3.2 keeps 3.1's structure and schemas and adds to them; what it adds is not imported.
        if text.hasPrefix("3.2.") { return .v32 }
        throw DiagnosticsError([.error(
            "OpenAPI \(MessageText.oneLine(text)) is not supported: 3.0.x, 3.1.x and 3.2.x are", file: file, location: locate(pointer), pointer: pointer)])
    }

    /// `$ref`s that point to nothing in this document, or to another file, each as a warning: the
    /// import leaves out what such a reference would have described. References inside vendor
    /// extensions (`x-…`) are annotations of other tools, not followed and not checked.
    private func referenceProblems() -> [Diagnostic] {
        var problems: [Diagnostic] = []
        func walk(_ value: JSONValue, at pointer: JSONPointer) {
            switch value {
            case .object(let object):
                if let reference = object["$ref"]?.stringValue {
                    let at = pointer.appending("$ref")
                    if let target = Self.localPointer(reference) {
                        if self.value(at: target) == nil {
                            // As the author wrote it: inside a bundled file, a pointer into that file.
                            let written = place(of: target).pointer.uriFragment
                            let shownReference = target.tokens.first == ExternalReferences.area ? (written.isEmpty ? "#" : written) : reference
                            problems.append(warning("'\(Self.shown(shownReference))' points to nothing; what it describes is left out", at: at))
                        }
                    } else if !external.refused.contains(reference) {
                        // Left as written by the bundling: a fragment that is no JSON Pointer (`#Pet`).
                        problems.append(warning(
                            "'\(Self.shown(reference))' cannot be followed (a fragment must be a JSON Pointer such as '#/Pet'); what it describes is left out", at: at))
                    }
                }
                // Extensions are other tools' business; the bundled files of a split document are not.
                for member in object where member.key != "$ref" && (!member.key.hasPrefix("x-") || (pointer.isRoot && member.key == ExternalReferences.area))
                    && !(ExternalReferences.isData(member.key, member.value, in: pointer) && !ExternalReferences.isNameMap(pointer))
                {
                    walk(member.value, at: pointer.appending(member.key))
                }
            case .array(let elements):
                for (index, element) in elements.enumerated() { walk(element, at: pointer.appending(index)) }
            default:
                break
            }
        }
        walk(.object(root), at: .root)
        return problems
    }

    /// A reference as a message shows it: longer than other values, since references are long by
    /// nature and read to spot a typo, but still cut.
    private static func shown(_ reference: String) -> String {
        MessageText.oneLine(reference, to: 100)
    }

    /// The properties a schema declares, through references and `allOf`: its own first, then
    /// each part's, in order; each with its schema as written and where that is.
    func declaredProperties(of schema: JSONValue, at pointer: JSONPointer, depth: Int = 0) -> [(name: String, schema: JSONValue, pointer: JSONPointer)] {
        guard depth < 32, let (object, at) = resolved(schema, at: pointer) else { return [] }
        var result = (object["properties"]?.objectValue ?? JSONObject()).members.map {
            (name: $0.key, schema: $0.value, pointer: at.appending("properties").appending($0.key))
        }
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            result += declaredProperties(of: part, at: at.appending("allOf").appending(index), depth: depth + 1)
        }
        return result
    }

    /// The members a schema requires, through references and `allOf`.
    func requiredProperties(of schema: JSONValue, at pointer: JSONPointer, depth: Int = 0) -> Set<String> {
        guard depth < 32, let (object, at) = resolved(schema, at: pointer) else { return [] }
        var result = Set((object["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        for (index, part) in (object["allOf"]?.arrayValue ?? []).enumerated() {
            result.formUnion(requiredProperties(of: part, at: at.appending("allOf").appending(index), depth: depth + 1))
        }
        return result
    }
}
