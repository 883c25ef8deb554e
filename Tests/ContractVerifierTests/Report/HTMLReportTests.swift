import ContractHTTP
import ContractModel
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// The HTML report: pinned by golden files (the shared hand-made run, and one against a
/// baseline), everything a server sends escaped, nothing loaded from anywhere, and a 10,000-case
/// run streamed at a bounded size per case. How it looks is checked by eye with
/// `scripts/html-screenshot`.
struct HTMLReportTests {
    let golden = GoldenFiles()

    /// A run against a baseline: a case whose drift is all known, one with known and new drift,
    /// one whose entry expired, a passing case, and two entries no finding met.
    static let baselineReport: VerifyReport = {
        let priceEntry = Baseline.Entry(
            fingerprint: "5500cdcc653799b6", caseName: "products.get/found", rule: "body.schema", place: "/price type",
            reason: "tracked in API-42", expires: "2027-01-31")
        let locationEntry = Baseline.Entry(fingerprint: "8b6aeff5ee0a7328", caseName: "products.create/created", rule: "header.pattern", place: "location")
        let deleteEntry = Baseline.Entry(
            fingerprint: "006ad48cd0d3a8f2", caseName: "products.delete/deleted", rule: "status", reason: "the server team said next sprint",
            expires: "2025-12-31")
        var price = Finding(
            kind: .body, rule: "body.schema", message: "/price: expected number, found string '1.50'", pointer: "/price", keyword: "type",
            schemaLocation: "contracts/schemas/product.json#/$defs/Price/type", schemaExcerpt: #"{"type":"number","minimum":0,"multipleOf":0.01}"#,
            excerpt: #"{"id":1,"name":"Pencil","price":"1.50","currency":"KRW","vendor":{"id":7…"#)
        price.baseline = .known(priceEntry)
        var location = Finding(
            kind: .header, rule: "header.pattern", subject: "location", message: "expected header 'Location' to match '^/api/products/[0-9]+$', found none")
        location.baseline = .known(locationEntry)
        let createdAt = Finding(
            kind: .body, rule: "body.schema", message: "/: missing required property 'createdAt'", pointer: "", keyword: "required",
            schemaLocation: "contracts/schemas/product.json#/required",
            schemaExcerpt: #"{"title":"Product","type":"object","required":["id","name","price","currency","createdAt"], …}"#,
            excerpt: #"{"id":6,"name":"Eraser","price":"0.80","…"#)
        var deleted = Finding(
            kind: .status, rule: "status",
            message: "expected status 204, found 200 (the body was not checked: the contract describes the body of a 204 response)",
            excerpt: #"{"deleted":7}"#)
        deleted.baseline = .expired(deleteEntry)
        let delete = DisplayedRequest(
            method: "DELETE", url: "http://127.0.0.1:PORT/api/products/7", headers: [HTTPHeader("Authorization", "Bearer ***")], body: nil)
        let results = [
            ReportTests.result("health.get", "ok", .passed),
            ReportTests.result("products.get", "found", .failed, findings: [price]),
            ReportTests.result("products.create", "created", .failed, findings: [location, createdAt], status: 201),
            ReportTests.result("products.delete", "deleted", .failed, findings: [deleted], status: 200, request: delete),
        ]
        var report = VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .milliseconds(87))
        report.summary.hasBaseline = true
        report.summary.fixed = [
            Baseline.Entry(fingerprint: "d0ac2f3ceb51d0fb", caseName: "products.get/found", rule: "body.schema", place: "/ additionalProperties"),
            Baseline.Entry(fingerprint: "1872db6b856998bb", caseName: "products.delete/deleted", rule: "setup.status", place: "create"),
        ]
        return report
    }()

    /// What a hostile or broken server could send, in every place a report shows server text.
    static let hostile = "</script><img src=x onerror=alert(1)>"
    static let hostileReport: VerifyReport = {
        let request = DisplayedRequest(
            method: "POST", url: "http://127.0.0.1:PORT/api/\"><script>alert(2)</script>?next=https://evil.example/x.png",
            headers: [HTTPHeader("X-Note", "' onmouseover='alert(3)")], body: #"{"note":"\#(hostile)"}"#)
        var result = ReportTests.result(
            "products.get", "found<b>", .failed,
            findings: [
                Finding(
                    kind: .body, rule: "body.schema", subject: "<i>", message: "/note: expected 'plain', found '\(hostile)'", pointer: "/note",
                    keyword: "const", schemaLocation: "contracts/schemas/x.json#/properties/note/const",
                    schemaExcerpt: #"{"const":"<style>@import url(https://evil.example/a.css)</style>"}"#,
                    excerpt: #"…"note": "\#(hostile)", "link": "<a href=https://evil.example/>x</a>"…"#)
            ],
            request: request)
        result.response?.headers = [HTTPHeader("Link", "<https://evil.example/>; rel=preload"), HTTPHeader("X-Body", hostile)]
        let error = ReportTests.result(
            "products.delete", "gone", .error, findings: [Finding(kind: .transport, message: "no response: \(hostile)")], status: nil,
            error: TransportError(kind: .other, detail: "upstream said \(hostile)", curlCode: 56))
        return VerifyReport(baseURL: "http://127.0.0.1:PORT/<base>", results: [result, error], duration: .milliseconds(5))
    }()

    @Test func theSharedRun() throws {
        let html = HTMLReport.render(ReportTests.report)
        try golden.check(html, against: "report.html")
        try Self.expectWellFormed(html)
        #expect(html.contains("<h1>contract verify found drift</h1>"))
        #expect(html.contains(#"<dt>Status</dt><dd>expected <b class="expected">201</b>, got <b class="actual">200</b></dd>"#))
        // Four cases did not pass: each has its details, and its row links to them.
        #expect(html.components(separatedBy: "<details class=\"case ").count - 1 == 4)
        #expect(html.components(separatedBy: "<tr class=\"case ").count - 1 == 5)
        #expect(html.contains(##"<a href="#c1">products.get/found</a>"##))
        #expect(html.contains("The same at <code>/items/1/price</code>, <code>/items/2/price</code>, <code>/items/3/price</code>, <code>/items/4/price</code>."))
        #expect(html.contains("none: timed out (Operation timed out after 1000 milliseconds), curl error 28"))
    }

    @Test func aRunAgainstABaseline() throws {
        let report = Self.baselineReport
        #expect((report.summary.newFindings, report.summary.knownFindings) == (2, 2))
        let html = HTMLReport.render(report)
        try golden.check(html, against: "report-baseline.html")
        try Self.expectWellFormed(html)
        #expect(html.contains(#"<body class="with-baseline">"#))
        #expect(html.contains("Known drift, listed in the baseline: tracked in API-42 (until 2027-01-31)"))
        #expect(html.contains("New again: its baseline entry expired on 2025-12-31 (it said: the server team said next sprint)"))
        #expect(html.contains("<li><code>products.delete/deleted</code> <code>setup.status</code> at <code>create</code>"))
        // The case whose drift is all known is in the "known" filter, the others in "new".
        #expect(html.contains(#"<details class="case failed known" id="c1""#))
        #expect(html.contains(#"<details class="case failed new" id="c2""#))
        #expect(html.contains(#"<label for="show-known">Known drift <span class="count">1</span></label>"#))
        #expect(html.contains(#"<label for="show-new">New drift <span class="count">2</span></label>"#))
    }

    @Test func withoutABaselineThereAreNoNewAndKnownFilters() {
        let html = HTMLReport.render(ReportTests.report)
        #expect(html.contains(#"<body class="without-baseline">"#))
        #expect(!html.contains(#"id="show-new""#) && !html.contains(#"id="show-known""#))
        #expect(html.contains(#"<input type="radio" name="show" class="filter" id="show-all" checked>"#))
    }

    @Test(arguments: VerifyOutcomeSample.allCases)
    func theHeadingHasTheMarkdownReportsWords(sample: VerifyOutcomeSample) {
        let markdown = MarkdownReport.verdict(sample.report.summary)
        let words = HTMLReport.verdictWords(sample.report.summary)
        #expect(markdown.hasSuffix(" " + words) && words.hasPrefix("contract verify"))
        #expect(HTMLReport.render(sample.report).contains("<h1>\(words)</h1>"))
    }

    @Test func everythingAServerSendsIsEscaped() throws {
        let html = HTMLReport.render(Self.hostileReport)
        try Self.expectWellFormed(html)
        #expect(html.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!html.contains("<img"), "a tag from a body must stay text")
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("</script>"))
        #expect(!html.contains("onerror=alert(1)>"))
        #expect(!html.contains("onmouseover='"), "quotes are escaped too")
        #expect(html.contains("onmouseover=&#39;"))
        #expect(html.contains("found&lt;b&gt;"))
        #expect(!html.contains("found<b>"))
        #expect(HTMLText.escape("a<b>&\"'\u{01}\n") == "a&lt;b&gt;&amp;&quot;&#39;\u{FFFD}\n")
    }

    @Test func numbersAreInGroupsOfThree() {
        #expect([0, 999, 1_000, 20_000, 1_234_567, -4_321].map(HTMLText.number) == ["0", "999", "1,000", "20,000", "1,234,567", "-4,321"])
        #expect(HTMLText.count(1, "case") == "1 case" && HTMLText.count(10_000, "case") == "10,000 cases")
    }

    /// Nothing the page refers to leaves it: every link is to a place in the page, no element
    /// loads anything, and the stylesheet imports nothing. URLs that servers send are text.
    @Test(arguments: ["shared", "baseline", "hostile"])
    func theFileLoadsNothing(run: String) throws {
        let report = run == "shared" ? ReportTests.report : run == "baseline" ? Self.baselineReport : Self.hostileReport
        let html = HTMLReport.render(report)
        #expect(html.contains("https://evil.example") == (run == "hostile"), "the hostile run has URLs in its text, to be sure they stay text")
        for tag in Self.tags(in: html) {
            let name = tag.name.lowercased()
            #expect(!["script", "link", "img", "iframe", "object", "embed", "base", "form", "video", "audio", "source", "svg"].contains(name), "<\(name)>")
            for attribute in ["src", "srcset", "action", "formaction", "data", "poster", "background", "style"] {
                #expect(!tag.text.lowercased().contains(" \(attribute)="), "\(attribute)= in \(tag.text)")
            }
            if let href = tag.text.range(of: " href=\"") {
                #expect(tag.text[href.upperBound...].hasPrefix("#"), "a link out of the page: \(tag.text)")
            }
            #expect(!tag.text.lowercased().contains(/\son[a-z]+=/), "an event handler attribute: \(tag.text)")
        }
        let style = try #require(Self.stylesheet(of: html))
        #expect(!style.contains("@import") && !style.contains("url(") && !style.contains("http"))
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-"))
    }

    /// The policy lets the browser apply the stylesheet only if its hash matches: a wrong hash
    /// would leave the page unstyled.
    @Test func thePolicyNamesTheStylesheetsHash() throws {
        let html = HTMLReport.render(ReportTests.report)
        let style = try #require(Self.stylesheet(of: html))
        let hex = SHA256.hex(style.utf8)
        let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16) ?? 0
        }
        #expect(html.contains("style-src 'sha256-\(Data(bytes).base64EncodedString())'"))
        #expect(style == HTMLStyle.stylesheet)
    }

    /// Each filter's input comes before `<main>` (the `~` rules need that), has a label, and a
    /// rule that hides what it leaves out.
    @Test func everyFilterHasItsInputLabelAndRule() throws {
        let html = HTMLReport.render(Self.baselineReport)
        let main = try #require(html.range(of: "<main>"))
        for filter in HTMLStyle.Filter.allCases {
            let input = try #require(html.range(of: "id=\"\(filter.id)\""), "\(filter.id)")
            #expect(input.lowerBound < main.lowerBound)
            #expect(html.contains("<label for=\"\(filter.id)\""))
            if filter != .all {
                #expect(HTMLStyle.stylesheet.contains("#\(filter.id):checked~main "))
            }
        }
        #expect(HTMLStyle.stylesheet.contains("#show-failed:checked~main .case:not(.failed){display:none}"))
    }

    @Test(arguments: [
        ("expected status 201, found 200", "201"),
        ("expected status 200 or 204, found 500 (the body was not checked: the contract describes the body of a 200 response)", "200 or 204"),
        ("expected status 2XX, found 404", "2XX"),
    ])
    func theExpectedStatusIsReadFromItsFinding(message: String, expected: String) {
        #expect(HTMLReport.expectedStatus(Finding(kind: .status, rule: "status", message: message)) == expected)
        #expect(HTMLReport.expectedStatus(Finding(kind: .setup, rule: "setup.status", message: "setup step 'a': " + message)) == nil)
    }

    /// 10,000 cases, 1 in 100 failing, streamed to a file as a run writes it: every case has a
    /// row, each row costs a bounded number of bytes, and the report keeps only what the header
    /// needs. `HTML_REPORT_SAMPLE=PATH` keeps a copy, for timing a browser on it.
    @Test func tenThousandCasesStreamAtABoundedSizePerCase() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = Self.bulkReport(cases: 10_000, failingEvery: 100)
        let path = folder.appendingPathComponent("report.html").path
        try FileReporter(kind: .html, path: path).replay(report)
        let html = try String(contentsOfFile: path, encoding: .utf8)
        if let sample = ProcessInfo.processInfo.environment["HTML_REPORT_SAMPLE"] {
            try html.write(toFile: sample, atomically: true, encoding: .utf8)
        }
        #expect(html.components(separatedBy: "<tr class=\"case ").count - 1 == 10_000)
        #expect(html.components(separatedBy: "<details class=\"case ").count - 1 == 100)
        #expect(!html.contains(" open>"), "100 cases are a list to open, not 100 open panels")
        let bytes = html.utf8.count
        #expect(bytes < 10_000 * 300, "\(bytes) bytes: \(bytes / 10_000) per case")
        try Self.expectWellFormed(html)

        // What the format keeps does not grow with passing cases.
        var format = HTMLReport()
        _ = format.opening(baseURL: report.baseURL, total: 10_000)
        for result in report.results.prefix(5_000) {
            let row = format.adding(result)
            // A row, and every so often the start of a new block of rows.
            if result.outcome == .passed { #expect(row.utf8.count < 250 + HTMLReport.nextBlock.utf8.count) }
        }
        #expect(format.keptDetails == 50)
    }

    @Test func aRunOverTheLimitsSaysWhatItLeavesOut() throws {
        let report = Self.bulkReport(cases: HTMLReport.maxRows + 1_000, failingEvery: 30)
        let failing = report.failed
        #expect(failing > HTMLReport.maxDetailed)
        let html = HTMLReport.render(report)
        #expect(html.contains("The run has more than 20,000 cases, so this table lists only the cases that did not pass."))
        #expect(html.components(separatedBy: "<tr class=\"case ").count - 1 == failing)
        #expect(html.contains("\(HTMLText.number(report.passed)) passing cases not listed here; the JSON report"))
        #expect(html.components(separatedBy: "<details class=\"case ").count - 1 == HTMLReport.maxDetailed)
        #expect(html.contains("\(failing - HTMLReport.maxDetailed) more cases that did not pass are not detailed here (this page details the first \(HTMLReport.maxDetailed))"))
        try Self.expectWellFormed(html)
    }

    @Test func aLargeRunThatPassedHasNoTable() {
        let results = (0..<(HTMLReport.maxRows + 1)).map { ReportTests.result("bulk", "case-\($0)", .passed) }
        let html = HTMLReport.render(VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .seconds(1)))
        #expect(!html.contains("<table>") && !html.contains("id=\"differs\""))
        #expect(html.contains("<h1>contract verify passed</h1>"))
    }

    // MARK: - Helpers

    static func bulkReport(cases: Int, failingEvery: Int) -> VerifyReport {
        let failing = ReportTests.report.results[1]
        let results = (0..<cases).map { index in
            var result = index % failingEvery == 7 ? failing : ReportTests.result("bulk", "case-\(index)", .passed)
            result.caseName = "case-\(index)"
            return result
        }
        return VerifyReport(baseURL: "http://127.0.0.1:PORT", results: results, duration: .seconds(3))
    }

    /// Every tag in the page. Escaped text holds no `<`, so each `<` starts a tag.
    static func tags(in html: String) -> [(name: String, text: String, closing: Bool)] {
        var tags: [(name: String, text: String, closing: Bool)] = []
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let text = String(rest[open...close])
            let inner = text.dropFirst().dropLast()
            let closing = inner.hasPrefix("/")
            let name = String(inner.drop(while: { $0 == "/" }).prefix(while: { $0.isLetter || $0.isNumber || $0 == "!" }))
            tags.append((name, text, closing))
            rest = rest[rest.index(after: close)...]
        }
        return tags
    }

    /// Every element that opens closes, in order: a text that broke out of its escaping, or a
    /// section closed twice, fails here.
    static func expectWellFormed(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let void: Set<String> = ["!DOCTYPE", "meta", "input", "col", "br"]
        var open: [String] = []
        // The stylesheet is text to HTML, however it reads.
        let withoutStyle = try #require(stylesheet(of: html).map { html.replacing($0, with: "") }, sourceLocation: sourceLocation)
        for tag in tags(in: withoutStyle) where !void.contains(tag.name) {
            if tag.closing {
                guard open.last == tag.name else {
                    Issue.record("</\(tag.name)> closes <\(open.last ?? "nothing")>", sourceLocation: sourceLocation)
                    return
                }
                open.removeLast()
            } else {
                open.append(tag.name)
            }
        }
        #expect(open.isEmpty, "left open: \(open)", sourceLocation: sourceLocation)
    }

    static func stylesheet(of html: String) -> String? {
        guard let start = html.range(of: "<style>"), let end = html.range(of: "</style>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }
}
