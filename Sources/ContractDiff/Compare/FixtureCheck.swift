import ContractJSON
import ContractModel
import ContractSchema

/// Whether a fixture written from an OLD case (what the app's unit tests are served) is still a
/// response the NEW case accepts: its status, and its JSON body against the new schema.
enum FixtureCheck {
    enum Mismatch: Equatable {
        /// The fixture fails the NEW case, for this reason.
        case fails(String)
        /// The NEW schema does not compile, for this reason: the fixture could not be checked
        /// (which is never a pass).
        case unchecked(String)
    }

    /// Why the fixture fails `expectation`, or why it could not be checked, in one line; nil when
    /// it passes.
    static func mismatch(_ fixture: JSONValue, against expectation: ResponseExpectation, catalog: SchemaCatalog) -> Mismatch? {
        guard case .object(let response)? = fixture.objectValue?["response"] else { return nil }
        if let status = response["status"]?.numberValue?.intValue, !expectation.status.accepts(status) {
            return .fails("its status \(status) is not \(expectation.status)")
        }
        guard case .json(let reference, _) = expectation.body.base, let body = response["body"] else { return nil }
        let schema: JSONSchema
        do {
            schema = try catalog.compile(reference)
        } catch {
            let first = error.problems.first.map { MessageText.clipped($0.description, to: 200) } ?? "no reason given"
            let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more)" : ""
            return .unchecked("\(first)\(more)")
        }
        let result = schema.validate(JSONTape(body), keepingAtMost: 1)
        guard let first = result.errors.first else { return nil }
        let place = first.instanceLocation.isRoot ? "/" : first.instanceLocation.description
        return .fails("\(place): \(first.message)")
    }
}
