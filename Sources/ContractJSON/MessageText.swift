/// Values shown in messages are cut short: a document decides their size, and an 8 MB string, an
/// 8 MB key or a million-digit number must not become a line of megabytes.
///
/// Lengths count Unicode scalars, not characters: one character can be megabytes of combining marks.
/// Nothing reads further into a value than its cut, so a huge value costs no more than a short one.
public enum MessageText {
    /// How many Unicode scalars of a value a message shows before "…".
    public static let valueLength = 40

    /// `text` cut after `maxLength` Unicode scalars, with "…" when something was cut.
    public static func clipped(_ text: String, to maxLength: Int = valueLength) -> String {
        let scalars = text.unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: maxLength, limitedBy: scalars.endIndex), cut != scalars.endIndex
        else { return text }
        return String(scalars[..<cut]) + "…"
    }

    /// A number as written, its digits cut like text but its exponent kept, so the magnitude shows:
    /// `1.111111…e+999999`.
    public static func clipped(_ number: JSONNumber) -> String {
        let text = number.description
        guard let exponent = text.firstIndex(of: "e") else { return clipped(text) }
        return clipped(String(text[..<exponent])) + text[exponent...]
    }

    /// `text` on one line, then cut: each run of white space, control characters or
    /// bidirectional controls (which reorder what a terminal shows, so a line would read as
    /// something other than it holds) becomes one space. For text quoted without escapes (keys,
    /// references) and for the messages of other libraries, which may span lines; those also
    /// quote values whole, so `wordLength` cuts each word (a run without space) as a value is
    /// cut, keeping the rest of the sentence.
    public static func oneLine(_ text: String, to maxLength: Int = valueLength, wordLength: Int = .max) -> String {
        var line = String.UnicodeScalarView()
        var count = 0
        var word = 0
        var inSpace = false
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control || isBidirectionalControl(scalar)
            if isSpace && inSpace { continue }
            inSpace = isSpace
            word = isSpace ? 0 : word + 1
            if word > wordLength {
                if word == wordLength + 1 { line.append("…") }
                continue
            }
            guard count < maxLength else {
                line.append("…")
                break
            }
            line.append(isSpace ? " " : scalar)
            count += 1
        }
        return String(line)
    }

    /// The bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F,
    /// U+202A to U+202E, U+2066 to U+2069).
    static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
