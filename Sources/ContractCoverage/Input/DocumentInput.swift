import ContractJSON
import ContractModel
import ContractOpenAPI

/// The I/O edge of `--openapi DOC`: the document's operations, read by the importer's own reader
/// (``DocumentOperations``: the same versions, split files, bounds and errors), joined with the
/// contracts (``DocumentJoin``).
enum DocumentInput {
    struct Read {
        var operations: [OperationCoverage]
        /// Contracts on no operation of the document: endpoints it does not have (or has under
        /// another method or path).
        var contractsOffDocument: [String]
        var warnings: [Diagnostic]
        /// Every file read: the document and the other files it refers to.
        var files: [String]
    }

    static func read(_ path: String, shownAs shown: String, contracts: [Contract]) -> Result<Read, DiagnosticsError> {
        do {
            let list = try DocumentOperations.read(path: path, shownAs: shown)
            let sorted = contracts.sorted { $0.id < $1.id }
            // A contract cannot express TRACE (the import skips it): no contract could close
            // such a gap, so it is said once and not counted.
            let operations = list.operations.filter { $0.method != "TRACE" }
            let traces = list.operations.filter { $0.method == "TRACE" }.map { operation in
                Diagnostic.warning(
                    "\(ShownText.oneLine(operation.label)): a contract cannot express TRACE (the import skips it), so it is not counted",
                    file: operation.file, location: SourceLocation(line: operation.line, column: operation.column, offset: 0))
            }
            return .success(Read(
                operations: DocumentJoin.join(operations, sorted), contractsOffDocument: DocumentJoin.contractsOnNoOperation(operations, sorted),
                warnings: list.diagnostics.filter { $0.severity != .note } + traces, files: list.files))
        } catch {
            return .failure(error)
        }
    }
}
