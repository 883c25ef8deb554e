/// A header pattern that is plain text, `^application/json` or `json`: matched by comparing bytes,
/// without the regex engine. Nearly every header pattern a contract writes is one of these, and
/// each is run on every response.
///
/// Only characters that are themselves in any ECMAScript pattern (letters, digits and a few
/// punctuation marks that are no syntax outside a class) make a literal; anything else (`.`, `\`,
/// `$`, a class, a group, a quantifier) leaves the pattern to the regex engine, so the verdict is
/// always the engine's.
struct LiteralPattern: Sendable {
    /// The text that must occur.
    let text: [UInt8]
    /// `^text`: at the start of the value; else anywhere in it (`RegExp.prototype.test`).
    let anchored: Bool

    init?(_ pattern: String) {
        var bytes = Array(pattern.utf8)
        anchored = bytes.first == UInt8(ascii: "^")
        if anchored { bytes.removeFirst() }
        guard !bytes.isEmpty, bytes.allSatisfy(Self.isLiteral) else { return nil }
        text = bytes
    }

    private static func isLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ","),
            UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "@"), UInt8(ascii: "%"): true
        default: false
        }
    }

    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count >= text.count else { return false }
        if anchored { return occurs(in: value, at: 0) }
        for start in 0...(value.count - text.count) where occurs(in: value, at: start) { return true }
        return false
    }

    private func occurs(in value: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        for index in text.indices where value[start + index] != text[index] { return false }
        return true
    }
}
