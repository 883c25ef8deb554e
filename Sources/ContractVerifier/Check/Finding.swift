/// One way a response differs from its contract, with enough to act on it: what was expected,
/// what came back, and for bodies where (JSON Pointer), which schema keyword, and the text around it.
public struct Finding: Sendable, Hashable {
    public enum Kind: String, Sendable {
        case status
        case header
        case contentType = "content-type"
        case body
        case setup
        case transport
    }

    public var kind: Kind
    /// One line: `/data/3/price: expected number, found string '12,00'`.
    public var message: String
    /// For body findings: where in the response body.
    public var pointer: String?
    /// For schema findings: the keyword that failed and where it is written.
    public var keyword: String?
    public var schemaLocation: String?
    /// A short excerpt of the body around the pointer.
    public var excerpt: String?

    public init(
        kind: Kind, message: String, pointer: String? = nil, keyword: String? = nil, schemaLocation: String? = nil, excerpt: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.pointer = pointer
        self.keyword = keyword
        self.schemaLocation = schemaLocation
        self.excerpt = excerpt
    }
}
