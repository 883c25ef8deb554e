/// Text escaped for the XML and HTML reports (JUnit, the HTML page). What they show comes from
/// servers and contracts, so `&`, `<` and `>` are always references; in an attribute quotes are
/// too, and, in XML, line breaks and tabs (which a reader would turn into spaces). Characters the
/// format cannot carry at all become U+FFFD.
public enum MarkupText {
    public enum Dialect: Sendable {
        /// XML 1.0: no C0 controls but tab, line feed and carriage return; no U+FFFE or U+FFFF.
        case xml
        /// HTML: no C0 controls but tab, line feed and carriage return, nor DEL.
        case html
    }

    public static func escaped(_ text: String, for dialect: Dialect, inAttribute: Bool = true) -> String {
        // Most texts (case names, durations, statuses) need nothing: no copy for them.
        guard text.utf8.contains(where: needsLookingAt) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += inAttribute ? "&quot;" : "\""
            case "'": escaped += inAttribute ? (dialect == .xml ? "&apos;" : "&#39;") : "'"
            case "\n", "\t": escaped += inAttribute && dialect == .xml ? "&#\(scalar.value);" : String(scalar)
            // An XML reader turns a carriage return into a line break unless it is a reference.
            case "\r": escaped += dialect == .xml ? "&#13;" : "\r"
            default:
                if isForbidden(scalar, in: dialect) {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    private static func needsLookingAt(_ byte: UInt8) -> Bool {
        // Bytes from 0xEF start U+FFFE and U+FFFF (EF BF BE, EF BF BF).
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'") || byte < 0x20 || byte == 0x7F || byte == 0xEF
    }

    private static func isForbidden(_ scalar: Unicode.Scalar, in dialect: Dialect) -> Bool {
        if scalar.value < 0x20 { return true }
        switch dialect {
        case .xml: return scalar.value == 0xFFFE || scalar.value == 0xFFFF
        case .html: return scalar.value == 0x7F
        }
    }
}
