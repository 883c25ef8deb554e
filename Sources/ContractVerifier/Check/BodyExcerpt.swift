import ContractJSON

/// A one-line window of a body around a byte offset, so a report shows the offending value in
/// its context without dumping a large body.
enum BodyExcerpt {
    static let radius = 40

    static func around(_ body: [UInt8], offset: Int) -> String {
        guard !body.isEmpty else { return "" }
        let center = min(max(0, offset), body.count - 1)
        var start = max(0, center - radius)
        var end = min(body.count, center + radius)
        // Never cut a UTF-8 sequence in half.
        while start > 0 && body[start] & 0xC0 == 0x80 { start -= 1 }
        while end < body.count && body[end] & 0xC0 == 0x80 { end += 1 }
        var text = String(decoding: body[start..<end], as: UTF8.self)
        text = text.map { $0.isNewline || $0 == "\t" ? " " : String($0) }.joined()
        return (start > 0 ? "…" : "") + text + (end < body.count ? "…" : "")
    }

    /// The start of the body, for bodies that are not JSON.
    static func head(_ body: [UInt8]) -> String {
        around(body, offset: radius)
    }
}
