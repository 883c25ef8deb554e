/// Text from files and servers as a line of output shows it: what a terminal or an editor would
/// act on is written as an escape instead. Written raw to a terminal, `ESC ]52;…` sets the
/// clipboard and `ESC [1A` rewrites the line above, so a server could print a fake `PASS`; a
/// newline or a line separator starts a fake line; and the bidirectional controls reorder what is
/// shown, so a line can read as something other than what it holds. One rule for every command.
public enum ShownText {
    /// `text` with every character that is not shown as itself as `\u{1B}` (line breaks and tabs too).
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnprintable(scalar) {
                result.append(contentsOf: escape(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` on one line, as ``escaped(_:)`` but with `\n`, `\r` and `\t` as people write them.
    public static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var line = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": line.append(contentsOf: "\\n".unicodeScalars)
            case "\r": line.append(contentsOf: "\\r".unicodeScalars)
            case "\t": line.append(contentsOf: "\\t".unicodeScalars)
            default:
                if isUnprintable(scalar) {
                    line.append(contentsOf: escape(scalar).unicodeScalars)
                } else {
                    line.append(scalar)
                }
            }
        }
        return String(line)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// C0 and C1 controls and DEL; the line and paragraph separators; the bidirectional marks,
    /// embeddings, overrides and isolates; and the two non-characters XML cannot carry.
    public static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true
        case 0x2028, 0x2029: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
