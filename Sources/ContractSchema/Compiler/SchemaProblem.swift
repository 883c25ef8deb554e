import ContractJSON

/// A problem in a schema itself (not in an instance): an unresolvable reference, a keyword with
/// an invalid value, a pattern that is not a regular expression.
public struct SchemaProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case unresolvableReference
        case referenceCycle
        case invalidKeyword
    }

    public var kind: Kind
    public var message: String
    /// The document the problem is in, by the URI it was registered under.
    public var document: String
    /// Where in that document.
    public var pointer: JSONPointer

    public init(kind: Kind, message: String, document: String, pointer: JSONPointer) {
        self.kind = kind
        self.message = message
        self.document = document
        self.pointer = pointer
    }

    /// `uri#/json/pointer`.
    public var location: String { document + pointer.uriFragment }

    public var description: String { "\(location): \(message)" }
}
