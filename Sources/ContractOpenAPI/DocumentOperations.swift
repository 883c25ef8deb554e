import ContractJSON
import ContractModel

/// One operation of an OpenAPI document, as the import reads it: what `contract coverage --openapi`
/// joins with a contracts tree.
public struct DocumentOperation: Sendable, Hashable {
    /// `GET`, `POST`… `TRACE` too, which the import skips.
    public var method: String
    /// The path key as the document writes it: `/pets/{petId}`, `/files/{id}#shared_link`.
    public var path: String
    /// The path the import's contract requests: ``path`` without its fragment and its query
    /// (`/files/{id}`), placeholders named as the document names them.
    public var requestPath: String
    public var operationID: String?
    /// The documented responses' keys in the document's order: `200`, `4XX`, `default`, as written
    /// (a YAML integer key as its digits). Vendor extensions (`x-…`) are not responses.
    public var responses: [String]
    /// Where the operation is written: the document's file or, for a split document, the other
    /// file that holds it (an operation given by `$ref` is placed where that points); line and
    /// column of its first member; its JSON Pointer in that file.
    public var file: String
    public var line: Int
    public var column: Int
    public var pointer: JSONPointer

    public init(
        method: String, path: String, requestPath: String, operationID: String?, responses: [String], file: String, line: Int, column: Int,
        pointer: JSONPointer
    ) {
        self.method = method
        self.path = path
        self.requestPath = requestPath
        self.operationID = operationID
        self.responses = responses
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
    }

    /// `GET /pets/{petId}`: how the import's diagnostics name the operation.
    public var label: String { "\(method) \(path)" }
}

/// The operations of an OpenAPI document (3.0, 3.1, 3.2 or Swagger 2.0, YAML or JSON, split over
/// files or not), read as `contract import openapi` reads them: the same reader, bounds and
/// walk of `paths`, so the list names what the import was given, and every operation it made a
/// contract of is in it.
public enum DocumentOperations {
    /// What reading found: the operations, path by path in the document's order and each path's
    /// methods in the import's (`get`, `put`, `post`, `delete`, `options`, `head`, `patch`,
    /// `trace`), and the reading's warnings and notes (a `$ref` to nowhere, another file that
    /// cannot be read, a 2.0 document read as 3.0), placed in their files. A path item, operation
    /// or response such a warning concerns is left out of the list, as the import leaves it out.
    public struct List: Sendable {
        public var operations: [DocumentOperation]
        public var diagnostics: [Diagnostic]
        /// The path of every file read: the document's, then the other files it refers to.
        public var files: [String]
    }

    /// Reads the document at `path`, shown as `file` in places and diagnostics.
    /// - Throws: the import's errors, placed in the file: a file that cannot be read, is too
    ///   large, or is not UTF-8, YAML or JSON; a document of no supported version.
    public static func read(path: String, shownAs file: String) throws(DiagnosticsError) -> List {
        let document = try OpenAPIDocument.read(path: path, shownAs: file)
        var operations: [DocumentOperation] = []
        for documentPath in document.paths() {
            let requestPath = String(DocumentPath.requestPath(ofKey: documentPath.key).path)
            for operation in documentPath.operations {
                let place = document.place(of: operation.pointer)
                let responsesPointer = operation.pointer.appending("responses")
                let responses = (operation.object["responses"]?.objectValue ?? JSONObject()).members
                    .filter { !$0.key.hasPrefix("x-") && document.resolved($0.value, at: responsesPointer.appending($0.key)) != nil }
                    .map(\.key)
                // Every file read has a position for its root, so the nearest ancestor always has
                // one; the start of the file stands in should a reader ever give none.
                let location = place.location ?? SourceLocation(line: 1, column: 1, offset: 0)
                operations.append(DocumentOperation(
                    method: operation.method.uppercased(), path: documentPath.key, requestPath: requestPath,
                    operationID: operation.object["operationId"]?.stringValue, responses: responses, file: place.file,
                    line: location.line, column: location.column, pointer: place.pointer))
            }
        }
        return List(operations: operations, diagnostics: document.warnings, files: [path] + document.otherFilePaths)
    }
}
