import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Markdown read as GitHub reads it, for the tests of the Markdown reports: cmark-gfm (GitHub's
/// own renderer; scripts/setup installs Debian's) with the extensions GitHub turns on (tables,
/// strikethrough, autolinks), raw HTML kept (`--unsafe`: GitHub passes it on to its sanitizer,
/// which lets `<img>`, `<a>` and `<details>` through). The tree it reads (`-t xml`) says which
/// element came from which construct, so a test tells an image, a link or raw HTML a field made
/// from the report's own.
public struct GitHubMarkdown: Sendable {
    /// A node of cmark-gfm's tree: `document`, `paragraph`, `heading`, `table`, `table_row`,
    /// `table_cell`, `text`, `code`, `code_block`, `link`, `image`, `html_inline`, `html_block`…
    public struct Node: Sendable {
        public var name: String
        public var attributes: [String: String]
        public var children: [Node]
        /// The text of a `text`, `code`, `code_block`, `html_inline` or `html_block`.
        public var literal: String

        /// Every node below this one (itself included), in document order.
        public var all: [Node] { [self] + children.flatMap(\.all) }

        /// The text a reader sees: every literal below, softbreaks as a space.
        public var shownText: String {
            switch name {
            case "text", "code", "code_block", "html_inline", "html_block": literal
            case "softbreak", "linebreak": " "
            default: children.map(\.shownText).joined()
            }
        }
    }

    /// The Markdown as given.
    public let markdown: String
    /// cmark-gfm's tree of it.
    public let document: Node

    /// Renders `markdown`; a missing cmark-gfm fails the test that asked (scripts/setup installs it).
    public init(_ markdown: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.markdown = markdown
        document = try TreeReader.read(Self.render(markdown, as: ["-t", "xml"], sourceLocation: sourceLocation))
    }

    public static var tool: String? {
        ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// cmark-gfm's output for `markdown`, with GitHub's extensions and raw HTML kept.
    static func render(_ markdown: String, as format: [String], sourceLocation: SourceLocation) throws -> Data {
        let tool = try #require(tool, "cmark-gfm is missing: run scripts/setup (it installs Debian's cmark-gfm)", sourceLocation: sourceLocation)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gfm-\(UUID().uuidString).md")
        try Data(markdown.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, out, err) = try ChildProcess.run(tool, ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink"] + format + [file.path])
        try #require(status == 0, "cmark-gfm failed: \(String(decoding: err, as: UTF8.self))", sourceLocation: sourceLocation)
        return out
    }

    public var nodes: [Node] { document.all }

    /// Destinations of every image: an image loads its source when the page is shown.
    public var images: [String] { nodes.filter { $0.name == "image" }.map { $0.attributes["destination"] ?? "" } }

    /// Every link, with the text it shows.
    public var links: [(destination: String, text: String)] {
        nodes.filter { $0.name == "link" }.map { ($0.attributes["destination"] ?? "", $0.shownText) }
    }

    /// Every piece of raw HTML, as written: each becomes elements on the page.
    public var rawHTML: [String] { nodes.filter { $0.name == "html_inline" || $0.name == "html_block" }.map(\.literal) }

    /// The HTML elements of the page, by tag name: the report's own and any a field made.
    public func elements(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Int] {
        let out = try Self.render(markdown, as: [], sourceLocation: sourceLocation)
        var counts: [String: Int] = [:]
        for match in String(decoding: out, as: UTF8.self).matches(of: /<([A-Za-z][A-Za-z0-9-]*)/) {
            counts[match.1.lowercased(), default: 0] += 1
        }
        return counts
    }

    private static let asciiPunctuation = Set(##"!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"##.unicodeScalars)

    /// The cells GitHub's cmark-gfm splits a table row into: a backslash takes the ASCII
    /// punctuation character after it (`\\|` is a backslash, then a cell's end), any other `|`
    /// ends a cell. cmark-gfm's tree cannot show a row that split: it drops the extra cells and
    /// pads a short row.
    public static func cellCount(_ line: Substring) -> Int {
        var pipes: [Int] = []
        var characters = Array(line.unicodeScalars)
        while characters.last == " " { characters.removeLast() }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, Self.asciiPunctuation.contains(characters[index + 1]) {
                index += 2
                continue
            }
            if character == "|" { pipes.append(index) }
            index += 1
        }
        // A leading and a trailing pipe open and close the row.
        var cells = pipes.count + 1
        if characters.first == "|" { cells -= 1 }
        if characters.count > 1, characters.last == "|", pipes.last == characters.count - 1 { cells -= 1 }
        return cells
    }

    /// Reads cmark-gfm's XML into nodes.
    private final class TreeReader: NSObject, XMLParserDelegate {
        private var stack: [Node] = [Node(name: "root", attributes: [:], children: [], literal: "")]
        private var failure: Error?

        static func read(_ data: Data) throws -> Node {
            let reader = TreeReader()
            // cmark-gfm writes control characters as they are, which XML cannot carry: each
            // becomes U+FFFD (and so differs from the text a test expects).
            var bytes = [UInt8]()
            for byte in data {
                if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { bytes += [0xEF, 0xBF, 0xBD] } else { bytes.append(byte) }
            }
            let parser = XMLParser(data: Data(bytes))
            parser.delegate = reader
            parser.shouldResolveExternalEntities = false
            guard parser.parse(), reader.stack.count == 1, let document = reader.stack[0].children.first else {
                throw reader.failure ?? parser.parserError ?? CocoaError(.fileReadCorruptFile)
            }
            return document
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            stack.append(Node(name: elementName, attributes: attributes, children: [], literal: ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack[stack.count - 1].literal += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            let node = stack.removeLast()
            stack[stack.count - 1].children.append(node)
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            failure = parseError
        }
    }
}

extension GitHubMarkdown {
    /// The elements the reports write themselves (the diff's safe changes fold in a `<details>`).
    static let reportElements: Set<String> = ["p", "h2", "h3", "h4", "table", "thead", "tbody", "tr", "th", "td", "code", "pre", "ul", "li", "strong"]

    /// What the text made that its writer did not: every image, link (but those `isAllowedLink`
    /// accepts) and piece of raw HTML (`isOwnHTML` tells the writer's own), every element a report
    /// never writes (`em`, `del`, `blockquote`, `img`, `a`, `script`…, and `details` or `summary`
    /// beyond the writer's own), and every table row whose cells are not as many as its header's.
    /// Empty when nothing was.
    public func injected(
        isOwnHTML: (String) -> Bool = { _ in false }, isAllowedLink: (_ destination: String, _ text: String) -> Bool = { _, _ in false },
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        var found: [String] = images.map { "image \($0)" }
        let allowedLinks = links.filter { isAllowedLink($0.destination, $0.text) }.count
        found += links.filter { !isAllowedLink($0.destination, $0.text) }.map { "link \($0.destination) showing '\($0.text)'" }
        let ownHTML = rawHTML.filter(isOwnHTML)
        found += rawHTML.filter { !isOwnHTML($0) }.map { "raw HTML \($0.debugDescription)" }
        var own: [String: Int] = ["a": allowedLinks]
        for html in ownHTML {
            for match in html.matches(of: /<([A-Za-z][A-Za-z0-9-]*)/) { own[match.1.lowercased(), default: 0] += 1 }
        }
        for (element, count) in try elements(sourceLocation: sourceLocation).sorted(by: { $0.key < $1.key }) {
            let allowed = Self.reportElements.contains(element) ? count : own[element, default: 0]
            if count > allowed { found.append("\(count - allowed) <\(element)> element\(count - allowed == 1 ? "" : "s")") }
        }
        var header: Int?
        var previous = ""
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                header = nil
                previous = String(line)
                continue
            }
            let cells = Self.cellCount(line)
            if line.allSatisfy({ "|-: ".contains($0) }) {
                // A delimiter row: the line before is the header.
                header = Self.cellCount(Substring(previous))
            } else if let header, cells != header {
                found.append("a row of \(cells) cells under a header of \(header): \(line)")
            }
            previous = String(line)
        }
        return found
    }
}
