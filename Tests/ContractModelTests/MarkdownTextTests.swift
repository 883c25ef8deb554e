import ContractModel
import TestSupport
import Testing

/// Every entry point of `MarkdownText`, in the place it is for, with text that tries every kind
/// of markup, rendered by GitHub's renderer (cmark-gfm, GitHubMarkdown): nothing but the text is
/// made (no image, link, raw HTML, emphasis, list, heading or quote; a table row keeps its cells;
/// a code span or block ends where its writer ends it), and the reader sees the text as written,
/// on one line.
struct MarkdownTextTests {
    enum Place: String, CaseIterable, Sendable {
        case tableCell, tableCode, heading, prose, proseContinued, code, codeInHeading, codeBlock
    }

    /// An entry point and the Markdown document that puts what it writes in its place.
    struct EntryPoint: Sendable {
        var place: Place
        var escape: @Sendable (String) -> String

        func document(_ text: String) -> String {
            let escaped = escape(text)
            switch place {
            case .tableCell, .tableCode: return "| A | B |\n|---|---|\n| \(escaped) | END |\n"
            case .heading, .codeInHeading: return "#### \(escaped)\n\nEND\n"
            case .prose: return "\(escaped)\n\nEND\n"
            case .proseContinued: return "Intro\n\(escaped)\n\nEND\n"
            case .code: return "before \(escaped) after\n\nEND\n"
            case .codeBlock: return "\(escaped)\nEND\n"
            }
        }
    }

    static let entryPoints: [EntryPoint] = [
        EntryPoint(place: .tableCell, escape: MarkdownText.tableCell),
        EntryPoint(place: .tableCode, escape: MarkdownText.tableCode),
        EntryPoint(place: .heading, escape: MarkdownText.heading),
        EntryPoint(place: .prose, escape: MarkdownText.prose),
        EntryPoint(place: .proseContinued, escape: MarkdownText.prose),
        EntryPoint(place: .code, escape: MarkdownText.code),
        EntryPoint(place: .codeInHeading, escape: MarkdownText.code),
        EntryPoint(place: .codeBlock, escape: { MarkdownText.codeBlock([$0, "second line"], info: "text") }),
    ]

    static let payloads: [String] = [
        // Backticks: every run length, at either end, alone, with spaces.
        "`", "``", "```", "````", "`````", "a`b", "a``b", "a```b", "a````b`", "`a", "a`", "``a``", "` a `", "`` ` ``", " `x` ",
        "/a`![b](http://evil.test/b.png)", "/a`<details open>", "/a`[l](http://evil.test/l)`", "/a``![b](http://evil.test/c.png)``",
        // Cells' ends, and backslashes before them.
        "|", "a|b", "||", "\\|", "a\\|b", "\\\\|", "\\\\\\|x", "`|`", "a\\", "\\", "\\`", "x\\`|`",
        // HTML.
        "<", ">", "&", "<details open>", "<details open><summary>s</summary>", "</details>", "<img src=\"http://evil.test/h.png\">",
        "<script>alert(1)</script>", "<iframe src=\"http://evil.test/f\"></iframe>", "<!-- x", "<!-- x -->", "-->", "<a href=\"http://evil.test/\">a</a>",
        "</td></tr></table><img src=http://evil.test/t.png>", "<http://evil.test/angle>", "<evil@evil.test>", "<?php ?>", "<![CDATA[x]]>",
        // Entities.
        "&#60;img src=http://evil.test/e.png&#62;", "&lt;details&gt;", "&amp;", "&#x3C;img&#x3E;", "&nbsp;", "&copy",
        // Images and links.
        "![x](http://evil.test/x.png)", "[x](http://evil.test/y)", "[x][r]\n\n[r]: http://evil.test/r", "[x]: http://evil.test/d", "![x][]",
        "\\![x](http://evil.test/bs.png)", "\\<img src=http://evil.test/bs.png>", "[^1]", "[ ] task",
        // Autolinks GitHub makes of plain text.
        "http://evil.test/u", "https://evil.test", "ftp://evil.test/f", "www.evil.test", "WWW.evil.test", "(www.evil.test)", "x http://evil.test/y.png z",
        // Line breaks and what they could start.
        "a\nb", "a\n\n<details open>", "a\r<img src=http://evil.test/r.png>", "\n# heading", "\n| a | b |\n|---|---|\n| c | d |",
        "a\r\n---", "x\n===", "a\u{2028}b", "\u{1B}[31mred", "tab\there", "a\u{0}b",
        // Emphasis, strikethrough, escapes.
        "\\", "*a*", "**b**", "_c_", "__d__", "~e~", "~~f~~", "a*b*c", "snake_case_name", "\\*not\\*",
        // What starts a block at a line's start.
        "#", "# x", "x #", "## x ##", "#hashtag", "- item", "+ item", "* item", "1. item", "1) item", "12345. x", "> quote", "    indented", "   three",
        "---", "===", "***", "___", "```js", "~~~", "- [ ] task", "| a |",
        // GitHub's math, mentions and references.
        "$x$", "$$\nx\n$$", "$`x`$", "@user", "#123", "GH-1",
        // Ordinary values read as written.
        "/api/products/{id}", "products.get/found", "HTTP/1.1", "contracts/products.get.json", "GET http://127.0.0.1:8080/api/ok?x=1&y=2",
        "", " ", "café ☕",
    ]

    /// What a reader should see: the text on one line (`\n` for a line break, `\u{1B}` for a
    /// control character).
    static func shown(_ text: String) -> String {
        var line = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                line += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: line.unicodeScalars.append(scalar)
            }
        }
        return line
    }

    @Test(arguments: entryPoints.map(\.place))
    func nothingButTheTextIsMade(_ place: Place) throws {
        let entryPoint = try #require(Self.entryPoints.first { $0.place == place })
        var failures: [String] = []
        for payload in Self.payloads {
            let markdown = entryPoint.document(payload)
            let page = try GitHubMarkdown(markdown)
            // An address written out is linked by GitHub as the address itself: a mail link
            // that shows where it goes and loads nothing.
            let problems = try page.injected(isAllowedLink: { $0 == "mailto:" + $1 }) + structure(of: page, place: place, payload: payload)
            if !problems.isEmpty {
                failures.append("\(payload.debugDescription) as \(entryPoint.escape(payload).debugDescription): " + problems.joined(separator: "; "))
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.payloads.count) texts in \(place):\n\(failures.joined(separator: "\n"))")
    }

    /// The document's blocks are the ones its writer wrote, and the text reads as written.
    func structure(of page: GitHubMarkdown, place: Place, payload: String) -> [String] {
        let blocks = page.document.children
        var problems: [String] = []
        func read(_ shown: String, as wanted: String) {
            if shown != wanted { problems.append("reads \(shown.debugDescription), not \(wanted.debugDescription)") }
        }
        // Text reads as written but for white space, which a page shows as one space, and
        // GitHub trims at the ends of a cell, a heading and a paragraph.
        func words(_ text: String) -> String { text.split(whereSeparator: { $0 == " " }).joined(separator: " ") }
        // A code span shows what it holds exactly; an empty one holds a space, so it shows at all.
        let code = payload.isEmpty ? " " : Self.shown(payload)
        let end = blocks.last.map { $0.name == "paragraph" && $0.shownText == "END" } ?? false
        if place != .tableCell && place != .tableCode && !end { problems.append("END is not a paragraph of its own") }
        switch place {
        case .tableCell, .tableCode:
            let rows = page.nodes.filter { $0.name == "table_row" }
            guard blocks.map(\.name) == ["table"], rows.count == 1, rows[0].children.count == 2 else {
                problems.append("not one table of one row of two cells: \(blocks.map(\.name))")
                break
            }
            if rows[0].children[1].shownText != "END" { problems.append("the second cell reads \(rows[0].children[1].shownText.debugDescription)") }
            let cell = rows[0].children[0]
            if place == .tableCode {
                if cell.children.map(\.name) != ["code"] { problems.append("the cell holds \(cell.children.map(\.name)), not one code span") }
                // A code span in a cell cannot show a `|` right after an odd run of backslashes:
                // GitHub reads `\\|` as a backslash, then a cell's end. One more backslash is shown.
                read(cell.shownText, as: Self.backslashAddedBeforeOddRuns(code))
            } else {
                read(words(cell.shownText), as: words(Self.shown(payload)))
            }
        case .heading, .codeInHeading:
            guard blocks.count == 2, blocks[0].name == "heading", blocks[0].attributes["level"] == "4" else {
                problems.append("not a heading: \(blocks.map(\.name))")
                break
            }
            if place == .codeInHeading {
                if blocks[0].children.map(\.name) != ["code"] { problems.append("the heading holds \(blocks[0].children.map(\.name)), not one code span") }
                read(blocks[0].shownText, as: code)
            } else {
                read(words(blocks[0].shownText), as: words(Self.shown(payload)))
            }
        case .prose, .proseContinued:
            let intro = place == .proseContinued ? "Intro " : ""
            let blank = payload.isEmpty
            guard blocks.count == (blank && place == .prose ? 1 : 2), blocks[0].name == "paragraph" else {
                problems.append("not one paragraph: \(blocks.map(\.name))")
                break
            }
            if !(blank && place == .prose) { read(words(blocks[0].shownText), as: words(intro + Self.shown(payload))) }
        case .code:
            guard blocks.count == 2, blocks[0].name == "paragraph" else {
                problems.append("not one paragraph: \(blocks.map(\.name))")
                break
            }
            let parts = blocks[0].children.map(\.name)
            if parts != ["text", "code", "text"] { problems.append("the line holds \(parts), not text, a code span, text") }
            read(blocks[0].shownText, as: "before \(code) after")
        case .codeBlock:
            guard blocks.count == 2, blocks[0].name == "code_block" else {
                problems.append("not one code block: \(blocks.map(\.name))")
                break
            }
            // A code block shows its lines as written; a reader takes a carriage return for a
            // line's end, and GitHubMarkdown reads other control characters as U+FFFD.
            let lines = String(String.UnicodeScalarView(
                payload.replacing("\r\n", with: "\n").replacing("\r", with: "\n").unicodeScalars
                    .map { $0.value < 0x20 && $0 != "\n" && $0 != "\t" ? "\u{FFFD}" : $0 }))
            read(blocks[0].literal, as: lines + "\nsecond line\n")
        }
        return problems
    }

    /// `text` with one more backslash before each `|` that follows an odd run of them.
    static func backslashAddedBeforeOddRuns(_ text: String) -> String {
        var result = ""
        var run = 0
        for character in text {
            if character == "|" && run % 2 == 1 { result += "\\" }
            run = character == "\\" ? run + 1 : 0
            result.append(character)
        }
        return result
    }

    @Test func ordinaryValuesStayReadable() {
        #expect(MarkdownText.tableCell("/api/products/{id}") == "/api/products/{id}")
        #expect(MarkdownText.tableCell("'price' is a string now: a client that reads a number fails") == "'price' is a string now: a client that reads a number fails")
        #expect(MarkdownText.heading("contracts/products.get.json") == "contracts/products.get.json")
        #expect(MarkdownText.tableCell("200 HTTP/1.1") == "200 HTTP/1.1")
        #expect(MarkdownText.tableCode("GET http://127.0.0.1:8080/api/products/{id}?page=2") == "`GET http://127.0.0.1:8080/api/products/{id}?page=2`")
        #expect(MarkdownText.code("products.get/found") == "`products.get/found`")
        #expect(MarkdownText.tableCode("a|b") == #"`a\|b`"#)
        #expect(MarkdownText.code("a|b") == "`a|b`", "outside a table a pipe needs no escape")
        #expect(MarkdownText.code("x`y") == "``x`y``")
        #expect(MarkdownText.code("`") == "`` ` ``")
        #expect(MarkdownText.tableCell("a | b <c> & `d`\ne") == #"a \| b &lt;c&gt; &amp; \`d\`\\ne"#)
        #expect(MarkdownText.codeBlock(["a", "b"], info: "text") == "```text\na\nb\n```\n")
        #expect(MarkdownText.codeBlock(["```"], info: "text") == "````text\n```\n````\n")
    }
}
