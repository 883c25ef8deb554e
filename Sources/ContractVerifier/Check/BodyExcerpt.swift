import ContractJSON

/// A one-line window of a body around a byte offset, so a report shows the offending value in
/// its context without dumping a large body. Secrets are masked before the window is cut, so a
/// cut never leaves part of one.
enum BodyExcerpt {
    static let radius = 40

    static func around(_ body: [UInt8], offset: Int, secrets: Secrets) -> String {
        guard !body.isEmpty else { return "" }
        let center = min(max(0, offset), body.count - 1)
        var start = max(0, center - radius)
        var end = min(body.count, center + radius)
        // The window grows to take every echo it cuts whole, then each is one mask.
        let echoes = secrets.echoes(overlapping: start..<end, in: body)
        start = min(start, echoes.first?.lowerBound ?? start)
        end = max(end, echoes.last?.upperBound ?? end)
        // Never cut a UTF-8 sequence in half.
        while start > 0 && body[start] & 0xC0 == 0x80 { start -= 1 }
        while end < body.count && body[end] & 0xC0 == 0x80 { end += 1 }
        let shown = Secrets.replacing(echoes.map { ($0.lowerBound - start)..<($0.upperBound - start) }, in: Array(body[start..<end]))
        var text = String(decoding: shown, as: UTF8.self)
        text = text.map { $0.isNewline || $0 == "\t" ? " " : String($0) }.joined()
        return (start > 0 ? Secrets.cutMark : "") + text + (end < body.count ? Secrets.cutMark : "")
    }

    /// The start of the body, for bodies that are not JSON.
    static func head(_ body: [UInt8], secrets: Secrets) -> String {
        around(body, offset: radius, secrets: secrets)
    }
}
