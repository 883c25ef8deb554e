import ContractModel
/// Text for an HTML page. Bodies, messages, headers and URLs come from servers, so everything a
/// report shows goes through ``escape(_:)``: a body holding `</pre><script>` stays text.
enum HTMLText {
    /// Escaped for element content and quoted attribute values alike. Control characters HTML
    /// forbids become U+FFFD, as in the JUnit report, so the page parses the same everywhere.
    static func escape(_ text: String) -> String {
        MarkupText.escaped(text, for: .html)
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
