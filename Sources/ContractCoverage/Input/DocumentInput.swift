import ContractModel

/// The I/O edge of `--openapi DOC`: the document's operations, read by the importer's reader,
/// joined with the contracts.
enum DocumentInput {
    static func operations(_ path: String, contracts: [Contract]) -> Result<[OperationCoverage], DiagnosticsError> {
        .failure(DiagnosticsError(argument: "--openapi is being built"))
    }
}
