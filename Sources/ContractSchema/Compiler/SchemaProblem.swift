import ContractJSON

/// A problem in a schema itself (not in an instance): an unresolvable reference, a keyword with
/// an invalid value, a pattern that is not a regular expression.
public struct SchemaProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong. A struct over a private enum, as swift-nio and Hummingbird do for their
    /// error codes, so a kind added later breaks no user's exhaustive `switch`: compare with `==`
    /// (`problem.kind == .referenceCycle`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        enum Base: String, Sendable, Hashable, CaseIterable {
            case unresolvableReference
            case referenceCycle
            case invalidKeyword
        }

        /// For switches inside this module, which may be exhaustive; users compare with `==`.
        let base: Base

        init(_ base: Base) {
            self.base = base
        }

        /// A `$ref` or `$dynamicRef` that names nothing the registry holds.
        public static let unresolvableReference = Kind(.unresolvableReference)
        /// References that lead back to themselves without passing through a keyword that applies
        /// to a part of the instance, so no instance could ever be checked.
        public static let referenceCycle = Kind(.referenceCycle)
        /// A keyword whose value the dialect does not allow (a pattern that is not a regular expression…).
        public static let invalidKeyword = Kind(.invalidKeyword)

        /// `unresolvableReference`, `referenceCycle` or `invalidKeyword`.
        public var description: String { base.rawValue }
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
