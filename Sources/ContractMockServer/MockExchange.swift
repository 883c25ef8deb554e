/// A request as the server read it off the connection: the method, the target as sent (path
/// and query, percent-encoded), the headers in order, and the body (nil when none was sent).
struct MockRequest: Sendable {
    var method: String
    var target: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]?

    /// Every value of a header, its name compared ignoring case.
    func values(of name: String) -> [String] {
        let lowered = name.lowercased()
        return headers.filter { $0.name.lowercased() == lowered }.map(\.value)
    }
}

/// What the server does with a request: answer it (after a delay, then perhaps close the
/// connection), or drop the connection without a word.
struct MockReply: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var delay: Duration? = nil
    var dropsConnection = false

    static func problem(_ status: Int, _ body: [UInt8]) -> MockReply {
        MockReply(status: status, headers: [("Content-Type", "application/problem+json")], body: body)
    }

    static func json(_ status: Int, _ body: [UInt8]) -> MockReply {
        MockReply(status: status, headers: [("Content-Type", "application/json")], body: body)
    }
}
