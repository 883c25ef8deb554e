/// Text escaped for the Markdown reports (`contract verify`'s and `contract merge`'s summary,
/// `contract diff`'s pull-request comment). GitHub renders them, HTML included, so what they show
/// from contracts, file names, reports and servers must never become markup: each entry point
/// writes a text for one place in a document, where it makes nothing but that text (no image,
/// link, raw HTML, emphasis, heading, list or quote, and no end to the cell, code span or block
/// it stands in), shown as written on one line (a line break as `\n`, a control character as
/// `\u{1B}`). The one escaper for Markdown, as `MarkupText` is for XML and HTML.
///
/// Ordinary values stay readable: `/api/products/{id}`, `HTTP/1.1` and `contracts/a.json` are
/// written as they are; only characters Markdown or GitHub reads as markup get a backslash or
/// an entity.
public enum MarkdownText {
    /// Text in a table cell: as ``heading(_:)``, and safe there because `|` is escaped (with any
    /// backslash before it) and nothing is left on another line.
    public static func tableCell(_ text: String) -> String {
        inline(oneLine(text))
    }

    /// Text in a heading (after `#### `, or after a code span in one): as ``tableCell(_:)``; a `#`
    /// is escaped, so none ends the heading.
    public static func heading(_ text: String) -> String {
        inline(oneLine(text))
    }

    /// Text in a line of prose, wherever it stands, at the line's start included: as
    /// ``tableCell(_:)``, and what would start a block there (a list's `-`, `+` or `1.`, a
    /// setext underline's `=`, an indentation) is escaped too.
    public static func prose(_ text: String) -> String {
        var line = inline(oneLine(text))[...]
        var start = ""
        // Spaces would be dropped, or four of them start a code block.
        while line.first == " " {
            start += "&#32;"
            line = line.dropFirst()
        }
        if let first = line.first, "-+=".contains(first) {
            start += "\\"
        } else if let end = line.firstIndex(where: { !$0.isASCII || !$0.isNumber }), end != line.startIndex, line[end] == "." || line[end] == ")" {
            start += String(line[..<end]) + "\\"
            line = line[end...]
        }
        return start + line
    }

    /// A code span outside a table (in prose, a heading or a list item): shows the text exactly
    /// as written, on one line, whatever it holds.
    public static func code(_ text: String) -> String {
        span(oneLine(text), inTable: false)
    }

    /// A code span in a table cell: as ``code(_:)``, and each `|` escaped, since GitHub splits a
    /// row into cells before it reads code spans (and drops the backslash inside one). A `|`
    /// right after an odd run of backslashes shows one backslash more: GitHub reads `\\|` as a
    /// backslash and a cell's end, so no code span in a cell can show that `\|` exactly.
    public static func tableCode(_ text: String) -> String {
        span(oneLine(text), inTable: true)
    }

    /// A fenced code block of `lines` (each may hold line breaks): shown exactly as written,
    /// fenced by more backticks than the longest run of them inside, so no line ends the block.
    /// `info` is the writer's own word for the language (`text`).
    public static func codeBlock(_ lines: [String], info: String = "") -> String {
        let text = lines.joined(separator: "\n")
        let fence = String(repeating: "`", count: max(3, longestRun(of: "`", in: text) + 1))
        return "\(fence)\(info)\n\(text)\n\(fence)\n"
    }

    /// `text` on one line: line breaks, control characters and the invisible characters that
    /// reorder text written as escapes (``ShownText/oneLine(_:)``), so it ends no line, cell or heading.
    public static func oneLine(_ text: String) -> String {
        ShownText.oneLine(text)
    }

    /// One line of text as inline Markdown that is only text:
    /// - `&`, `<` and `>` as entity references: no raw HTML (tags, comments, `<http://…>`
    ///   autolinks) and no entity written in the text is read as one;
    /// - a backslash before each character that starts inline markup: `\` itself, `` ` `` (code
    ///   spans), `*`, `_` and `~` (emphasis, strikethrough), `[`, `]` and `!` (links, images,
    ///   footnotes), `|` (a cell's end), `#` (a heading's closing sequence), `$` (GitHub's math),
    ///   `@` (a mention);
    /// - a backslash before the `:` of `://` and the `.` of `www.`, where GitHub would link a URL
    ///   written out (an address written out is linked as itself, `mailto:`, and left so).
    private static func inline(_ line: String) -> String {
        guard line.utf8.contains(where: { markupBytes.contains($0) }) else { return line }
        var escaped = ""
        escaped.reserveCapacity(line.utf8.count + 16)
        let scalars = Array(line.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\\", "`", "*", "_", "~", "[", "]", "!", "|", "#", "$", "@":
                escaped += "\\"
                escaped.unicodeScalars.append(scalar)
            case ":" where index + 2 < scalars.count && scalars[index + 1] == "/" && scalars[index + 2] == "/":
                escaped += "\\:"
            case "." where index >= 3 && scalars[(index - 3)..<index].allSatisfy { $0 == "w" || $0 == "W" }:
                escaped += "\\."
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static let markupBytes = Set("&<>\\`*_~[]!|#$@:.".utf8)

    /// A code span: fenced by one backtick more than the longest run of them inside (CommonMark),
    /// padded with a space where a backtick or a space at either end would be lost. Empty, it
    /// holds a space, so it still shows as a code span.
    private static func span(_ content: String, inTable: Bool) -> String {
        guard !content.isEmpty else { return "` `" }
        let fence = String(repeating: "`", count: longestRun(of: "`", in: content) + 1)
        let needsPadding = content.hasPrefix("`") || content.hasSuffix("`")
            || (content.hasPrefix(" ") && content.hasSuffix(" ") && content.contains { $0 != " " })
        let padding = needsPadding ? " " : ""
        return fence + padding + (inTable ? pipesEscaped(content) : content) + padding + fence
    }

    /// `|` as `\|`, with one backslash more after an odd run of them: GitHub's table reader takes
    /// a backslash and the character after it as a pair, so the run must leave the `\` before
    /// the `|` unpaired.
    private static func pipesEscaped(_ content: String) -> String {
        guard content.contains("|") else { return content }
        var escaped = ""
        var backslashes = 0
        for scalar in content.unicodeScalars {
            if scalar == "|" {
                escaped += backslashes % 2 == 1 ? "\\\\|" : "\\|"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
            backslashes = scalar == "\\" ? backslashes + 1 : 0
        }
        return escaped
    }

    private static func longestRun(of character: Unicode.Scalar, in text: String) -> Int {
        var longest = 0
        var run = 0
        for scalar in text.unicodeScalars {
            run = scalar == character ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}
