/// Which way a change moves what a message may hold. Worked out once per keyword
/// (``SchemaConcept``), then read through the side of the exchange (``MessageSide``): the same
/// change to the same keyword breaks clients on one side and is safe on the other.
enum Effect: String, Sendable, Hashable {
    /// Fewer values are valid than before (a bound tightened, a property required).
    case narrowed
    /// More values are valid than before (a bound relaxed, a type added).
    case widened
    /// Some values valid before are not, and some new ones are (a type replaced, a value renamed).
    case changed
    /// The two cannot be compared by their text (two regular expressions): maybe either.
    case incomparable
}

/// The side of the exchange a schema describes.
public enum MessageSide: String, Sendable, Hashable, CaseIterable {
    /// What a client sends: the server checks it, so NEW must accept everything OLD accepted.
    /// Narrowing breaks clients; widening is safe.
    case request
    /// What a server sends: the client reads it, so NEW must send nothing OLD did not allow.
    /// Widening breaks clients; narrowing is safe.
    case response
    /// A path, query or header parameter the endpoint describes (`request.parameters`): sent by
    /// clients, so read as a request is.
    case parameter

    /// The direction rule, once for every keyword.
    func severity(of effect: Effect) -> Change.Severity {
        switch (self, effect) {
        case (_, .changed): .breaking
        case (_, .incomparable): .warning
        case (.request, .narrowed), (.parameter, .narrowed), (.response, .widened): .breaking
        case (.request, .widened), (.parameter, .widened), (.response, .narrowed): .safe
        }
    }
}
