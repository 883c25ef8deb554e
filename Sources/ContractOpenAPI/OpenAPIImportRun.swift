import ContractJSON
import ContractModel

/// What a `contract import openapi` run came to.
public enum OpenAPIImportOutcome: Sendable {
    /// A `--value` is not `NAME=VALUE`, or misuses a placeholder; nothing was read or written.
    case invalidArguments(ImportArgumentError)
    /// The document cannot be imported, or the output folder was refused; nothing was written.
    case failed([Diagnostic])
    /// The contracts were written: what the import made (with its warnings) and what changed.
    case imported(ImportResult, ImportWriter.Outcome)
}

/// `contract import openapi` as one call: check the `--value`s, import the document, write the
/// folder. The executable declares the options and prints the outcome.
public enum OpenAPIImportRun {
    /// - Parameters:
    ///   - document: the OpenAPI document's path, as shown in diagnostics too.
    ///   - out: the folder the contracts are written into.
    ///   - values: `--value NAME=VALUE`s as typed (``GivenValues``); those an earlier import of
    ///     the folder was given are kept, and those given now win.
    public static func run(document: String, out: String, values: [String]) -> OpenAPIImportOutcome {
        let given: [String: JSONValue]
        do {
            given = ImportWriter.recordedValues(in: out).merging(try GivenValues.parse(values)) { _, now in now }
        } catch {
            return .invalidArguments(error)
        }
        do {
            let result = try OpenAPIImporter.importDocument(path: document, shownAs: document, values: given)
            return .imported(result, try ImportWriter.write(result, to: out, source: document, values: given))
        } catch {
            return .failed(error.diagnostics)
        }
    }
}
