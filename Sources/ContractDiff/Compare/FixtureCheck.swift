import ContractJSON
import ContractModel
import ContractSchema

/// Whether a fixture written from an OLD case (what the app's unit tests are served) is still a
/// response the NEW case accepts: its status, and its JSON body against the new schema.
enum FixtureCheck {
    /// Why the fixture fails `expectation`, in one line; nil when it passes.
    static func mismatch(_ fixture: JSONValue, against expectation: ResponseExpectation, catalog: SchemaCatalog) -> String? {
        guard case .object(let response)? = fixture.objectValue?["response"] else { return nil }
        if let status = response["status"]?.numberValue?.intValue, !expectation.status.accepts(status) {
            return "its status \(status) is not \(expectation.status)"
        }
        guard case .json(let reference, _) = expectation.body.base, let body = response["body"],
            let schema = try? catalog.compile(reference)
        else { return nil }
        let result = schema.validate(JSONTape(body), keepingAtMost: 1)
        guard let first = result.errors.first else { return nil }
        let place = first.instanceLocation.isRoot ? "/" : first.instanceLocation.description
        return "\(place): \(first.message)"
    }
}
