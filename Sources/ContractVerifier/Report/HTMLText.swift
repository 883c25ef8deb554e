/// Text for an HTML page. Bodies, messages, headers and URLs come from servers, so everything a
/// report shows goes through ``escape(_:)``: a body holding `</pre><script>` stays text.
enum HTMLText {
    /// Escaped for element content and quoted attribute values alike. Control characters HTML
    /// forbids become U+FFFD, as in the JUnit report, so the page parses the same everywhere.
    static func escape(_ text: String) -> String {
        // Most texts (case names, durations, statuses) need nothing: no copy for them.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 < 0x20 || $0 == 0x7F }) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\n", "\t", "\r": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// Escaped and cut to `length` characters, with the cut marked.
    static func clipped(_ text: String, to length: Int) -> String {
        escape(ResponseChecker.clip(text, to: length))
    }

    /// `1 case`, `10,000 cases`.
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(self.number(number)) \(number == 1 ? noun : plural ?? noun + "s")"
    }

    /// `10,000`: the page is for people, and a long number in groups reads at a glance. The same
    /// separator on every machine, so the page does not change with the locale it is written in.
    static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}
