import ContractSchema

/// A header check's pattern as the plan compiles it, once per distinct text: the regex, and
/// the pattern as plain bytes when it is plain text (``LiteralPattern``), which is then matched
/// without the regex engine. A class: the check stage reads it for every response, and a
/// reference is one retain where a copy of the regex and the literal was several.
final class HeaderPattern: Sendable {
    let regex: ECMARegex
    let literal: LiteralPattern?

    init(regex: ECMARegex, literal: LiteralPattern?) {
        self.regex = regex
        self.literal = literal
    }

    /// Whether `value`'s bytes match: the same verdict as `regex` on the value.
    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        if let literal { return literal.matches(value) }
        // Decoded as before (invalid UTF-8 repaired), so the engine sees the text it always saw.
        return regex.matches(String(decoding: value, as: UTF8.self))
    }
}
