import ContractRequests
import ContractSchema
import Foundation

/// One endpoint's request checker, compiled on the first request that reaches it (a suite that
/// never calls an endpoint never pays for its schemas) and shared by every fixture and stub of
/// the endpoint's `FixtureSet`.
final class EndpointCheck: @unchecked Sendable {
    let description: RequestDescription
    let source: String
    private let lock = NSLock()
    private var compiled: Result<RequestChecker, SchemaCompilationError>?

    init(_ description: RequestDescription, source: String) {
        self.description = description
        self.source = source
    }

    /// The checker, or why the fixture's schemas do not compile (a fixture edited by hand).
    var checker: Result<RequestChecker, SchemaCompilationError> {
        lock.lock()
        defer { lock.unlock() }
        if let compiled { return compiled }
        let made: Result<RequestChecker, SchemaCompilationError>
        do {
            made = .success(try RequestChecker(description, source: source))
        } catch {
            made = .failure(error)
        }
        compiled = made
        return made
    }
}
