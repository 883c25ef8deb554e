/// A request as it was sent, read from whatever carried it (a `URLRequest`, a mock server's
/// request): what ``RequestChecker`` holds to a ``RequestDescription``.
public struct WireRequest: Sendable, Hashable {
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    /// The path as sent, percent-encoded (`/api/products/caf%C3%A9`), without the query.
    public var path: String
    /// The query's items, decoded, in order; a name may repeat.
    public var query: [Field]
    public var headers: [Field]
    /// Nil when the request has no body.
    public var body: [UInt8]?
    /// The request may have a body its carrier does not show (`URLSession`'s upload tasks hand a
    /// `URLProtocol` none): the body is then not checked.
    public var bodyIsUnseen: Bool

    public init(method: String, path: String, query: [Field] = [], headers: [Field] = [], body: [UInt8]? = nil, bodyIsUnseen: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyIsUnseen = bodyIsUnseen
    }

    /// Every value of a header, its name compared ignoring ASCII case (header names are ASCII
    /// tokens), without a lowercased copy of each.
    func values(ofHeader name: String) -> [String] {
        headers.filter { Self.sameIgnoringCase($0.name, name) }.map(\.value)
    }

    static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}
