import ContractHTTP
import ContractJSON
import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ContractVerifier

/// Every reporter on one hand-made run with each kind of outcome, pinned by golden files.
struct ReportTests {
    let golden = GoldenFiles()

    static func result(
        _ contract: String, _ name: String, _ outcome: CaseResult.Outcome, findings: [Finding] = [], status: Int? = 200,
        error: TransportError? = nil, attempts: Int = 1, request: DisplayedRequest? = nil, chain: [ChainStep] = []
    ) -> CaseResult {
        let shown = request ?? DisplayedRequest(
            method: "GET", url: "http://127.0.0.1:PORT/api/\(name)", headers: [HTTPHeader("Accept", "application/json")], body: nil)
        let response = status.map {
            ResponseSummary(
                status: $0, headers: [HTTPHeader("Content-Type", "application/json")], httpVersion: "HTTP/1.1", bodyBytes: 120,
                timings: HTTPTimings())
        }
        return CaseResult(
            contractID: contract, caseName: name, file: "contracts/\(contract).json", outcome: outcome, request: shown, response: response,
            findings: findings, transportError: error, attempts: attempts, duration: .milliseconds(12), chain: chain)
    }

    /// A setup step before a case's request, with what each format escapes in its body.
    static let createStep = ChainStep(
        name: "create",
        request: DisplayedRequest(
            method: "POST", url: "http://127.0.0.1:PORT/api/products",
            headers: [HTTPHeader("Authorization", "Bearer ***"), HTTPHeader("Content-Type", "application/json")],
            body: #"{"name":"Temp <b> & 'Co'","price":1}"#))

    static let report = VerifyReport(
        baseURL: "http://127.0.0.1:PORT",
        results: [
            result("health.get", "ok", .passed),
            result(
                "products.get", "found", .failed,
                findings: [
                    Finding(
                        kind: .body, message: "/price: expected number, found string '1.50'", pointer: "/price", keyword: "type",
                        schemaLocation: "contracts/schemas/product.json#/properties/price/type", excerpt: #"…"name": "Pencil", "price": "1.50", "currency": "KRW"…"#),
                    Finding(kind: .header, message: "expected header 'Location', found none"),
                ]),
            result(
                "products.list", "first-page", .failed,
                findings: (0..<5).map { index in
                    Finding(
                        kind: .body, message: "/items/\(index)/price: expected number, found string '1.50'", pointer: "/items/\(index)/price",
                        keyword: "type", schemaLocation: "contracts/schemas/product.json#/$defs/Price/type", excerpt: #"…"price": "1.50"…"#)
                }),
            result(
                "products.create", "created", .failed, findings: [Finding(kind: .status, message: "expected status 201, found 200")],
                request: DisplayedRequest(
                    method: "POST", url: "http://127.0.0.1:PORT/api/products",
                    headers: [HTTPHeader("Authorization", "Bearer ***"), HTTPHeader("Content-Type", "application/json")],
                    body: #"{"name":"Eraser & <Co>","price":0.8}"#)),
            result(
                "products.delete", "deleted", .error, findings: [Finding(kind: .transport, message: "no response: timed out (after 3 attempts)")],
                status: nil, error: TransportError(kind: .timeout, detail: "Operation timed out after 1000 milliseconds", curlCode: 28), attempts: 3,
                chain: [createStep]),
        ],
        duration: .milliseconds(1234))

    @Test func consoleInCI() throws {
        var text = ""
        let console = ConsoleReporter(style: .plain) { text += $0 }
        try console.replay(Self.report)
        try golden.check(text, against: "console.txt")
        #expect(!text.contains("\u{1B}"), "no escape codes outside a terminal")
        #expect(text.contains("the same at /items/1/price, /items/2/price, /items/3/price and 1 more"))
    }

    @Test func quietConsoleShowsOnlyWhatDidNotPass() throws {
        var full = ""
        var quiet = ""
        try ConsoleReporter(style: .plain) { full += $0 }.replay(Self.report)
        try ConsoleReporter(style: .plain, quiet: true) { quiet += $0 }.replay(Self.report)
        let passing = full.split(separator: "\n").filter { $0.hasPrefix("PASS ") }
        #expect(!passing.isEmpty)
        #expect(quiet.split(separator: "\n") == full.split(separator: "\n").filter { !$0.hasPrefix("PASS ") })
    }

    @Test func consoleLinesKeepPlanOrderWhateverOrderCasesEnd() throws {
        var inOrder = ""
        var shuffled = ""
        try ConsoleReporter(style: .plain) { inOrder += $0 }.replay(Self.report)
        let order = Array(Self.report.results.indices.reversed())
        try ConsoleReporter(style: .plain) { shuffled += $0 }.replay(Self.report, order: order)
        #expect(shuffled == inOrder)
    }

    @Test(arguments: [
        (VerifyOutcomeSample.passed, "✅ contract verify passed"),
        (.drift, "❌ contract verify found drift"),
        (.noResponse, "❌ contract verify got no response for 1 case"),
        (.unreachable, "❌ contract verify reached no server"),
    ])
    func markdownSaysWhatHappened(sample: VerifyOutcomeSample, heading: String) {
        #expect(MarkdownReport.render(sample.report).hasPrefix("## \(heading)\n"))
    }

    @Test func json() throws {
        let text = JSONReport.render(Self.report)
        try golden.check(text, against: "report.json")
        let parsed = try JSONParser().parse(text).value
        #expect(parsed.objectValue?["version"] == 1)
        #expect(parsed.objectValue?["cases"]?.arrayValue?.count == 5)
    }

    @Test func junit() throws {
        let text = JUnitReport.render(Self.report)
        try golden.check(text, against: "report.junit.xml")
        let document = try XMLDocument(data: Data(text.utf8))
        #expect(try document.nodes(forXPath: "//testcase").count == 5)
        #expect(try document.nodes(forXPath: "//failure").count == 3)
        #expect(try document.nodes(forXPath: "//error").count == 1)
    }

    @Test func markdown() throws {
        try golden.check(MarkdownReport.render(Self.report), against: "report.md")
    }

    @Test func xmlEscapesWhatXMLCannotCarry() {
        #expect(JUnitReport.escape("a<b>&\"'\u{01}") == "a&lt;b&gt;&amp;&quot;&apos;\u{FFFD}")
    }

    /// Three properties missing at one place are three problems, not one "the same at /, /, /".
    @Test func groupingNeverListsOnePlaceTwice() {
        let missing = ["id", "name", "price"].map { name in
            Finding(
                kind: .body, message: "/: missing required property '\(name)'", pointer: "", keyword: "required",
                schemaLocation: "contracts/schemas/product.json#/required")
        }
        let groups = ReportFormatting.grouped(missing)
        #expect(groups.count == 3)
        #expect(groups.allSatisfy { $0.others.isEmpty })
        let prices = (0..<5).map { index in
            Finding(
                kind: .body, message: "/items/\(index)/price: expected number", pointer: "/items/\(index)/price", keyword: "type",
                schemaLocation: "contracts/schemas/product.json#/properties/price/type")
        }
        #expect(ReportFormatting.grouped(prices).map { $0.others.count } == [4])
    }

    @Test func exitCodes() {
        #expect(Self.report.exitCode == 1)
        let unreachable = TransportError(kind: .connectionRefused, detail: "")
        let down = VerifyReport(
            baseURL: "", results: [Self.result("a", "b", .error, status: nil, error: unreachable)], duration: .zero)
        #expect(down.exitCode == 3)
        let passed = VerifyReport(baseURL: "", results: [Self.result("a", "b", .passed)], duration: .zero)
        #expect(passed.exitCode == 0)
    }
}

/// Runs that ended each way, for the headings that say how.
enum VerifyOutcomeSample: CaseIterable {
    case passed, drift, noResponse, unreachable

    var report: VerifyReport {
        let request = DisplayedRequest(method: "GET", url: "http://127.0.0.1:1/x", headers: [], body: nil)
        func result(_ outcome: CaseResult.Outcome, error: TransportError? = nil) -> CaseResult {
            CaseResult(
                contractID: "c", caseName: "\(outcome)", file: "c.json", outcome: outcome, request: request, response: nil,
                findings: outcome == .passed ? [] : [Finding(kind: error == nil ? .status : .transport, message: "m")],
                transportError: error, attempts: 1, duration: .zero)
        }
        let results: [CaseResult]
        switch self {
        case .passed: results = [result(.passed)]
        case .drift: results = [result(.passed), result(.failed), result(.error, error: TransportError(kind: .timeout, detail: "t"))]
        case .noResponse: results = [result(.passed), result(.error, error: TransportError(kind: .timeout, detail: "t"))]
        case .unreachable: results = [result(.error, error: TransportError(kind: .connectionRefused, detail: "refused"))]
        }
        return VerifyReport(baseURL: "http://127.0.0.1:1", results: results, duration: .zero)
    }
}
