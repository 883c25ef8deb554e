import ContractJSON

/// One way a request breaks its endpoint's description: where (the body, or a parameter or
/// header by name, and the JSON Pointer inside its value), the keyword, and what was expected
/// and what was sent, in the validator's words (as `contract verify` reports a response).
public struct RequestViolation: Sendable, Hashable, CustomStringConvertible {
    /// The part of the request.
    public enum Part: String, Sendable, Hashable {
        case path
        case query
        case header
        case body
    }

    public var part: Part
    /// The parameter or header's name; nil for the body.
    public var name: String?
    /// Inside the body or the parameter's value; the root for the value as a whole.
    public var pointer: JSONPointer
    /// The schema keyword that failed (`type`, `required`, `additionalProperties`…), or what the
    /// request lacks without a schema saying so: `required` for a parameter or header not sent,
    /// `contentType` for a body of the wrong media type, `json` for a body that is not JSON.
    public var keyword: String
    /// `expected integer, found "first"`.
    public var message: String
    /// Where the failing keyword is written: `schemas/new-product.json#/properties/price/type`.
    public var schemaLocation: String?

    public init(part: Part, name: String? = nil, pointer: JSONPointer = .root, keyword: String, message: String, schemaLocation: String? = nil) {
        self.part = part
        self.name = name.map { MessageText.clipped($0, to: Self.maxShownName) }
        // A member's name is the client's to choose: one of megabytes, refused, was kept whole
        // in the journal, the log line and the usage record.
        self.pointer = pointer.tokens.contains { $0.utf8.count > Self.maxShownName }
            ? JSONPointer(tokens: pointer.tokens.map { MessageText.clipped($0, to: Self.maxShownName) }) : pointer
        self.keyword = keyword
        self.message = message
        self.schemaLocation = schemaLocation
    }

    /// Unicode scalars of a name, or of a pointer's token, kept: the rest is cut with "…".
    public static let maxShownName = 200

    /// `body /price`, `query parameter 'page_no'`, `header 'Authorization'`.
    public var place: String {
        let inside = pointer.isRoot ? "" : " \(pointer.description)"
        switch part {
        case .body: return "body" + (pointer.isRoot ? "" : " \(pointer.description)")
        case .header: return "header '\(name ?? "")'\(inside)"
        case .path, .query: return "\(part.rawValue) parameter '\(name ?? "")'\(inside)"
        }
    }

    /// `body /price: expected number, found "0.8" [type] (schemas/new-product.json#/properties/price/type)`.
    public var description: String {
        "\(place): \(message) [\(keyword)]" + (schemaLocation.map { " (\($0))" } ?? "")
    }
}
