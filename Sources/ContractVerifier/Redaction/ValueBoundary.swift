import ContractJSON

/// Where an echo of a short secret stands as a value of its own rather than inside other text.
///
/// A secret of a character or two (`TOKEN=h`) masked everywhere would turn `http://` into
/// `***ttp://`, and masking it inside words hides nothing worth hiding: such a value is guessed in
/// a few tries. It must still never be shown where it is a value: a whole header value, a query or
/// path value, a JSON string, a pointer token, a quoted value, a word. So an echo of a short secret
/// is masked when neither side of it touches a letter, a digit or `_` (a "word" character).
///
/// The character on each side is read as what it stands for in the forms ``SecretPattern`` knows,
/// so `%22h%22`, `\"h\"`, `\u0022h` and `~1h` are whole values too; a cut mark `…` counts as a
/// boundary (the clip may have removed one). Each rule errs towards masking.
enum ValueBoundary {
    /// Whether the text before `position` ends a value: nothing, or a character that is not a word character.
    static func isBoundary(before position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard position > 0 else { return true }
        if endsWithCutMark(text, at: position) { return true }
        let last = text[position - 1]
        // `%XX`: the byte it encodes; a multi-byte character's last byte is not read as one.
        if position >= 3, text[position - 3] == UInt8(ascii: "%"), let high = PercentEncoding.hexValue(text[position - 2]), let low = PercentEncoding.hexValue(last) {
            let byte = high << 4 | low
            return byte >= 0x80 || !isWord(Unicode.Scalar(byte))
        }
        // `\u0022`: the character it escapes.
        if position >= 6, text[position - 6] == UInt8(ascii: "\\"), text[position - 5] == UInt8(ascii: "u") {
            let digits = (position - 4..<position).map { PercentEncoding.hexValue(text[$0]) }
            if digits.allSatisfy({ $0 != nil }) {
                let value = digits.reduce(UInt32(0)) { $0 << 4 | UInt32($1 ?? 0) }
                return Unicode.Scalar(value).map { !isWord($0) } ?? true
            }
        }
        if position >= 2 {
            let escape = text[position - 2]
            // `\n`, `\t`… and `~0`, `~1` stand for white space, `~` and `/`.
            if escape == UInt8(ascii: "\\"), Array("nrtbf\"/\\".utf8).contains(last) { return true }
            if escape == UInt8(ascii: "~"), last == UInt8(ascii: "0") || last == UInt8(ascii: "1") { return true }
        }
        if last < 0x80 { return !isWord(Unicode.Scalar(last)) }
        // The last character of several bytes: back over its continuation bytes.
        var start = position - 1
        while start > 0, position - start < 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(in: text, from: start, to: position).map { !isWord($0) } ?? true
    }

    /// Whether the text from `position` on starts after a value: nothing, or a character that is
    /// not a word character. Every escape starts with one (`%`, `\`, `&`, `~`), so none is read.
    static func isBoundary(after position: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard position < text.count else { return true }
        if startsWithCutMark(text, at: position) { return true }
        let first = text[position]
        if first < 0x80 { return !isWord(Unicode.Scalar(first)) }
        var end = position + 1
        while end < text.count, end - position < 4, text[end] & 0xC0 == 0x80 { end += 1 }
        return scalar(in: text, from: position, to: end).map { !isWord($0) } ?? true
    }

    /// Letters, digits (of any script), combining marks and `_`: what a word is made of.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    private static let cutMark = Array(Secrets.cutMark.utf8)

    private static func endsWithCutMark(_ text: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        position >= cutMark.count && (0..<cutMark.count).allSatisfy { text[position - cutMark.count + $0] == cutMark[$0] }
    }

    private static func startsWithCutMark(_ text: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        position + cutMark.count <= text.count && (0..<cutMark.count).allSatisfy { text[position + $0] == cutMark[$0] }
    }

    /// The one scalar the bytes `start..<end` encode, nil when they are not exactly one.
    private static func scalar(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Unicode.Scalar? {
        let scalars = String(decoding: text[start..<end], as: UTF8.self).unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

}
