import ContractJSON

/// A value of a JSON response body held to what the flow captured or sent (`values` in a
/// response): the read's `/id` is the id the create answered, `/updated_at` is later than the
/// captured `created_at`, some element of `/items` has the id just made.
public struct ValueExpectation: Sendable, Hashable {
    public enum Relation: Sendable, Hashable {
        /// The same JSON value. Strings may hold placeholders; a string that is one
        /// `${capture:…}` is the captured value with its type.
        case equals(JSONValue)
        /// Any other value than this one (the same reading as `equals`).
        case differs(JSONValue)
        /// A text an ECMA-262 pattern finds; placeholders in it stand for their values' text,
        /// matched literally.
        case pattern(TemplateString)
        /// Later than this date-time (RFC 3339), or greater than this number: both sides the same kind.
        case after(TemplateString)
        /// Earlier, or smaller.
        case before(TemplateString)
        /// An array with at least one element that meets every one of these, their pointers read
        /// from the element.
        case someElement([ValueExpectation])
        /// `true`: the member is there; `false`: it is not.
        case present(Bool)
    }

    /// Where the value is in the body.
    public var pointer: JSONPointer
    public var relation: Relation

    public init(pointer: JSONPointer, relation: Relation) {
        self.pointer = pointer
        self.relation = relation
    }

    /// Every text with placeholders it holds, nested ones included.
    public var templates: [TemplateString] {
        switch relation {
        case .equals(let value), .differs(let value): CaseRequest.strings(in: value).compactMap { $0.contains("${") ? try? TemplateString(parsing: $0) : nil }
        case .pattern(let template), .after(let template), .before(let template): [template]
        case .someElement(let inner): inner.flatMap(\.templates)
        case .present: []
        }
    }

    /// The relation's name as the format writes it: `equals`, `someElement`.
    public var keyword: String {
        switch relation {
        case .equals: "equals"
        case .differs: "differs"
        case .pattern: "pattern"
        case .after: "after"
        case .before: "before"
        case .someElement: "someElement"
        case .present: "present"
        }
    }
}
