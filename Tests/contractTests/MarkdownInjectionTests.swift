import Foundation
import TestSupport
import Testing

/// The Markdown reports are rendered by GitHub (step summaries, pull-request comments), which
/// renders the HTML inside Markdown. Through the real binary, contracts, file names, a server and
/// an edited shard report put markup in every field they reach, and GitHub's renderer
/// (cmark-gfm, GitHubMarkdown) must find in `contract verify`'s, `contract merge`'s and
/// `contract diff`'s Markdown no image, link, raw HTML or element the report does not write
/// itself, and every table row with its header's number of cells.
@Suite(.serialized)
struct MarkdownInjectionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markdown-injection-\(UUID().uuidString)")

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func contract(_ arguments: [String]) async throws -> ContractBinary.Result {
        // diff has no colours to turn off.
        try await ContractBinary.run(arguments + (arguments.first == "diff" ? [] : ["--color", "never"]), in: folder)
    }

    /// A contract at `path` that expects 201 (the server answers 200, so each case is detailed).
    static func contract(id: String, path: String) -> String {
        let path = String(decoding: try! JSONSerialization.data(withJSONObject: path, options: .fragmentsAllowed), as: UTF8.self)
        return """
            { "id": "\(id)", "request": { "method": "GET", "path": \(path) },
              "cases": [ { "name": "created", "response": { "status": 201 } } ] }
            """
    }

    /// Markup a field could carry, in one value: an image, raw HTML, a link, an autolink, a
    /// plain URL, an entity, a code span's end, a cell's end, a code block's end and a line break.
    static let markup = "`![i](http://evil.test/i.png)<details open><summary>s</summary><img src=\"http://evil.test/h.png\">"
        + "[l](http://evil.test/l) <http://evil.test/a> http://evil.test/u &#60;img src=x&#62; ``|x|\n```\n<img src=x>\n# h"

    /// Items 8 and 9 of the issue: contract paths with a backtick (lint accepts them) and a
    /// contract file named like an image, through `contract verify`.
    @Test func verifyWritesNoMarkupFromPathsOrFileNames() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(Self.contract(id: "image", path: "/a`![b](http://evil.test/b.png)"), to: "contracts/image.json")
        try write(Self.contract(id: "details", path: "/a`<details open>"), to: "contracts/details.json")
        try write(Self.contract(id: "link", path: "/a`[l](http://evil.test/l)`|x"), to: "contracts/link.json")
        try write(Self.contract(id: "file", path: "/f"), to: #"contracts/<img src="http:&#47;&#47;evil.test&#47;beacon.png">.json"#)
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        let result = try await contract(["verify", "--base-url", server.baseURL, "--report", "markdown=\(path("r.md"))", "--report", "json=\(path("r.json"))", path("contracts")])
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let markdown = try String(contentsOfFile: path("r.md"), encoding: .utf8)
        let injected = try GitHubMarkdown(markdown).injected()
        #expect(injected.isEmpty, "\(injected.count) injected:\n\(injected.joined(separator: "\n"))\n\(markdown)")
        try expectShownAsWritten(markdown, report: path("r.json"))
    }

    /// Item 10: a shard report read back by `contract merge` carries markup in `httpVersion`,
    /// `contract`, `case`, `file` and the request; the merged Markdown must show it as text, as the
    /// merged HTML page does.
    @Test func mergeWritesNoMarkupFromAReport() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for id in ["one", "two", "three"] { try write(Self.contract(id: id, path: "/\(id)"), to: "contracts/\(id).json") }
        let server = try LoopbackHTTPServer { _, _ in .json(status: 200, "{}") }
        let run = try await contract(["verify", "--base-url", server.baseURL, "--report", "json=\(path("run.json"))", path("contracts")])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")

        var report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("run.json")))) as? [String: Any])
        var cases = try #require(report["cases"] as? [[String: Any]])
        for index in cases.indices {
            cases[index]["contract"] = "c\(index)" + Self.markup
            cases[index]["case"] = "k\(index)" + Self.markup
            cases[index]["file"] = "f\(index)" + Self.markup
            var request = try #require(cases[index]["request"] as? [String: Any])
            request["method"] = "GET" + Self.markup
            request["url"] = "http://127.0.0.1/\(index)" + Self.markup
            cases[index]["request"] = request
            var response = try #require(cases[index]["response"] as? [String: Any])
            response["httpVersion"] = "HTTP/1.1" + Self.markup
            cases[index]["response"] = response
        }
        report["cases"] = cases
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: path("edited.json")))

        let merged = try await contract(["merge", path("edited.json"), "--report", "markdown=\(path("m.md"))", "--report", "json=\(path("m.json"))"])
        #expect(merged.exitCode == 1, "\(merged.stdout)\(merged.stderr)")
        let markdown = try String(contentsOfFile: path("m.md"), encoding: .utf8)
        let injected = try GitHubMarkdown(markdown).injected()
        #expect(injected.isEmpty, "\(injected.count) injected:\n\(injected.joined(separator: "\n"))\n\(markdown)")
        try expectShownAsWritten(markdown, report: path("m.json"))
    }

    /// `contract diff`'s pull-request comment: property names, enum values, a path and an ignore
    /// entry's reason with markup in them.
    @Test func diffWritesNoMarkupFromContractsOrIgnoreReasons() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = String(decoding: try JSONSerialization.data(withJSONObject: "p" + Self.markup, options: .fragmentsAllowed), as: UTF8.self)
        let value = String(decoding: try JSONSerialization.data(withJSONObject: "v" + Self.markup, options: .fragmentsAllowed), as: UTF8.self)
        func tree(_ type: String, _ values: [String], path: String) -> String {
            """
            { "id": "products.get", "request": { "method": "GET", "path": "\(path)" },
              "cases": [ { "name": "found", "response": { "status": 200, "schema": {
                "type": "object", "required": [\(name)],
                "properties": { \(name): { "type": "\(type)" }, "s": { "enum": [\(values.joined(separator: ", "))] } } } } } ] }
            """
        }
        try write(tree("number", [#""a""#], path: "/p/1"), to: "old/products.get.json")
        try write(tree("string", [#""a""#, value], path: "/p/1`![x](http://evil.test/x.png)<details open>"), to: "new/products.get.json")
        try write(Self.contract(id: "gone", path: "/g`![g](http://evil.test/g.png)`|x"), to: "old/gone.json")
        let first = try await contract(["diff", "old", "new", "--report", "json=\(path("d.json"))"])
        #expect(first.exitCode == 1, "\(first.stdout)\(first.stderr)")
        // One change ignored, with markup in its reason.
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("d.json")))) as? [String: Any])
        let change = try #require((json["changes"] as? [[String: Any]])?.first { ($0["severity"] as? String) == "breaking" })
        let entry: [String: Any] = [
            "fingerprint": try #require(change["fingerprint"] as? String), "rule": try #require(change["rule"] as? String), "reason": "r" + Self.markup,
        ]
        let ignore: [String: Any] = ["format": "contract-diff-ignore", "version": 1, "changes": [entry]]
        try JSONSerialization.data(withJSONObject: ignore).write(to: URL(fileURLWithPath: path("ignore.json")))

        let result = try await contract(["diff", "old", "new", "--ignore", path("ignore.json"), "--report", "markdown=\(path("d.md"))"])
        #expect([0, 1].contains(result.exitCode), "\(result.stdout)\(result.stderr)")
        let markdown = try String(contentsOfFile: path("d.md"), encoding: .utf8)
        #expect(markdown.contains("Ignored (1)"), "\(markdown)")
        let injected = try GitHubMarkdown(markdown).injected(isOwnHTML: Self.isDiffsOwnHTML)
        #expect(injected.isEmpty, "\(injected.count) injected:\n\(injected.joined(separator: "\n"))\n\(markdown)")
    }

    /// The diff folds its safe changes in `<details><summary>N safe changes</summary>`.
    static func isDiffsOwnHTML(_ html: String) -> Bool {
        html.wholeMatch(of: /<details><summary>[0-9]+ safe changes?<\/summary>\n/) != nil || html == "</details>\n"
    }

    /// verify's and merge's table: each row shows its case's name, request line and outcome as
    /// the JSON report has them (on one line, `\n` for a line break), and each case's heading its
    /// name and file.
    func expectShownAsWritten(_ markdown: String, report: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let page = try GitHubMarkdown(markdown)
        let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        let rows = page.nodes.filter { $0.name == "table_row" }.map { $0.children.map(\.shownText) }
        let headings = page.nodes.filter { $0.name == "heading" && $0.attributes["level"] == "4" }.map(\.shownText)
        #expect(rows.count == cases.count, sourceLocation: sourceLocation)
        for (row, result) in zip(rows, cases) {
            let name = "\(result["contract"] as? String ?? "")/\(result["case"] as? String ?? "")"
            let request = result["request"] as? [String: Any] ?? [:]
            let line = "\(request["method"] as? String ?? "") \(request["url"] as? String ?? "")"
            let outcome: String
            if let response = result["response"] as? [String: Any] {
                outcome = "\(response["status"] as? Int ?? 0) \(response["httpVersion"] as? String ?? "")"
            } else {
                outcome = "no response (\((result["transportError"] as? [String: Any])?["kind"] as? String ?? ""))"
            }
            #expect(row.count == 4, "\(row)", sourceLocation: sourceLocation)
            guard row.count == 4 else { continue }
            #expect(row[1] == Self.cell(name), sourceLocation: sourceLocation)
            #expect(row[2] == Self.cell(line), sourceLocation: sourceLocation)
            #expect(row[3] == Self.cell(outcome), sourceLocation: sourceLocation)
            let file = result["file"] as? String ?? ""
            #expect(headings.contains("\(Self.oneLine(name)) (\(Self.cell(file)))"), "\(headings)", sourceLocation: sourceLocation)
        }
    }

    /// A cell's text: clipped to 200 characters, then on one line.
    static func cell(_ text: String) -> String {
        oneLine(text.count > 200 ? String(text.prefix(200)) + "…" : text)
    }

    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\\n")
    }
}
