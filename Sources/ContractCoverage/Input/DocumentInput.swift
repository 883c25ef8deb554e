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
    }

    static func read(_ path: String, shownAs shown: String, contracts: [Contract]) -> Result<Read, DiagnosticsError> {
        do {
            let list = try DocumentOperations.read(path: path, shownAs: shown)
            let sorted = contracts.sorted { $0.id < $1.id }
            return .success(Read(
                operations: DocumentJoin.join(list.operations, sorted), contractsOffDocument: DocumentJoin.contractsOnNoOperation(list.operations, sorted),
                warnings: list.diagnostics.filter { $0.severity != .note }))
        } catch {
            return .failure(error)
        }
    }
}
