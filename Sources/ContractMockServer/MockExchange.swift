import NIOCore
import NIOHTTP1

/// A request as the server read it off the connection: the method, the target as sent (path
/// and query, percent-encoded), the headers in order, and the body (nil when none was sent).
struct MockRequest: Sendable {
    var method: String
    var target: String
    var headers: HTTPHeaders
    var body: [UInt8]?

    /// Every value of a header, its name compared ignoring case.
    func values(of name: String) -> [String] {
        headers[name]
    }
}

/// What the server does with a request: answer it (after a delay, then perhaps close the
/// connection), or drop the connection without a word. Its headers hold its `Content-Length`
/// already: a fixture's answer is made once, when the set is served, and written as it is.
struct MockReply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    private(set) var body: ByteBuffer
    var delay: Duration? = nil
    var dropsConnection = false

    init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        let body = Self.allowsBody(status) ? body : []
        var fields = HTTPHeaders(headers)
        if Self.sendsLength(status) { fields.add(name: "Content-Length", value: String(body.count)) }
        self.headers = fields
        self.body = ByteBuffer(bytes: body)
    }

    /// An answer made before (``ServedSet``'s), with its `Content-Length` in its headers.
    init(status: Int, prepared headers: HTTPHeaders, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Another body, with its length.
    mutating func replaceBody(_ bytes: [UInt8]) {
        guard Self.allowsBody(status) else { return }
        body = ByteBuffer(bytes: bytes)
        headers.replaceOrAdd(name: "Content-Length", value: String(bytes.count))
    }

    /// Whether an answer of `status` may have a body: not a 1xx, 204, 205 or 304 (RFC 9110
    /// §15.3.5, §15.3.6, §15.4.5). A fixture's body for one (`contract fixtures` may synthesize
    /// `{}` from a schema) is not sent: bytes after such an answer's head would be read as the
    /// start of the next answer on the connection.
    static func allowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 205 && status != 304
    }

    /// Whether an answer of `status` states its length: not a 1xx, 204 or 304 (RFC 9110 §8.6);
    /// a 205's is 0.
    static func sendsLength(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }

    /// Whether `status` ends an exchange: not a 1xx, which only announces the answer.
    static func isFinal(_ status: Int) -> Bool {
        (200...599).contains(status)
    }

    static func problem(_ status: Int, _ body: [UInt8]) -> MockReply {
        MockReply(status: status, headers: [("Content-Type", "application/problem+json")], body: body)
    }

    static func json(_ status: Int, _ body: [UInt8]) -> MockReply {
        MockReply(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
