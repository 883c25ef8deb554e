import ContractHTTP
import ContractJSON
import Testing

@testable import ContractVerifier

/// A long chain of setup steps in a case's reproduction: every report but the JSON one shows a
/// bounded part of it, says what it left out, and escapes what it shows.
struct ReproductionReportTests {
    static func step(_ index: Int, name: String? = nil) -> ChainStep {
        ChainStep(
            name: name ?? "step-\(index)",
            request: DisplayedRequest(method: "POST", url: "http://127.0.0.1:PORT/api/things/\(index)", headers: [], body: #"{"n":\#(index)}"#))
    }

    static func failed(chain: [ChainStep]) -> CaseResult {
        ReportTests.result("things.get", "deep", .failed, findings: [Finding(kind: .status, message: "expected status 200, found 404")], chain: chain)
    }

    @Test func theTextShowsTheFirstStepsThenSaysHowManyMore() {
        let count = ReportFormatting.maxChain + 10
        let result = Self.failed(chain: (0..<count).map { Self.step($0) })
        let lines = ReportFormatting.details(result).filter { $0.hasPrefix("reproduce") }
        #expect(lines.count == ReportFormatting.maxChain + 2)
        #expect(lines.first == "reproduce (setup 'step-0'): curl -i -X POST http://127.0.0.1:PORT/api/things/0 --data-raw '{\"n\":0}'")
        #expect(lines[ReportFormatting.maxChain - 1].hasPrefix("reproduce (setup 'step-\(ReportFormatting.maxChain - 1)'): "))
        #expect(lines[ReportFormatting.maxChain] == "reproduce: … and 10 more setup requests before the one below (the JSON report has every one)")
        #expect(lines.last == "reproduce: curl -i http://127.0.0.1:PORT/api/deep -H 'Accept: application/json'")

        // The JSON report has every one, in order.
        let json = try? JSONParser().parse(JSONReport.render(VerifyReport(baseURL: "http://127.0.0.1:PORT", results: [result], duration: .zero))).value
        let setup = json?.objectValue?["cases"]?.arrayValue?.first?.objectValue?["setup"]?.arrayValue
        #expect(setup?.count == count)
        #expect(setup?.last?.objectValue?["name"] == .string("step-\(count - 1)"))
    }

    @Test func theHTMLPageShowsTheFirstStepsNumberedThenTheDecidingRequest() {
        let count = ReportFormatting.maxChain + 3
        let html = HTMLReport.caseDetails(Self.failed(chain: (0..<count).map { Self.step($0) }))
        #expect(html.components(separatedBy: "<pre><code>curl").count - 1 == ReportFormatting.maxChain + 1)
        #expect(html.contains("<p class=\"label\">1. setup step 'step-0'</p>"))
        #expect(html.contains("… and 3 more setup requests; the JSON report has every one."))
        #expect(html.contains("<p class=\"label\">\(count + 1). the case's request</p>"))
        let setupFailed = ReportTests.result(
            "things.get", "deep", .failed, findings: [Finding(kind: .setup, rule: "setup.status", subject: "b", message: "setup step 'b': expected status 2XX, found 500")],
            chain: [Self.step(0, name: "a")])
        #expect(HTMLReport.caseDetails(setupFailed).contains("<p class=\"label\">2. the setup step that failed</p>"))
    }

    /// A report anyone could edit names its steps: each format shows the name as text.
    @Test func aStepNameIsEscapedEverywhere() {
        let result = Self.failed(chain: [Self.step(0, name: "<script>\u{1B}]52;c;x\u{07}")])
        let line = ReportFormatting.details(result).first { $0.hasPrefix("reproduce (setup") }
        #expect(line?.hasPrefix(#"reproduce (setup '<script>\u{1B}]52;c;x\u{7}'): "#) == true, "\(line ?? "")")
        let html = HTMLReport.caseDetails(result)
        #expect(!html.contains("<script>") && html.contains("&lt;script&gt;"))
        let report = VerifyReport(baseURL: "http://127.0.0.1:PORT", results: [result], duration: .zero)
        #expect(!JUnitReport.render(report).contains("<script>"))
        #expect(!MarkdownReport.render(report).contains("\u{1B}"))
    }

    /// `curl -X HEAD` asks for a body the server does not send, and waits for it until its
    /// timeout: a HEAD request is reproduced with `--head`.
    @Test func aHeadRequestIsReproducedWithHead() {
        let head = DisplayedRequest(method: "HEAD", url: "http://127.0.0.1:PORT/api/things/1", headers: [], body: nil)
        #expect(CurlCommand.line(for: head) == "curl -i --head http://127.0.0.1:PORT/api/things/1")
        let get = DisplayedRequest(method: "GET", url: "http://127.0.0.1:PORT/api/things/1", headers: [], body: nil)
        #expect(CurlCommand.line(for: get) == "curl -i http://127.0.0.1:PORT/api/things/1")
    }
}
