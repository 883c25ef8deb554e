import ContractHTTP
import Foundation
import TestSupport
import Testing

@testable import ContractVerifier

/// Every JUnit file the tool writes is valid against the strict JUnit schema, `junit-10.xsd`
/// (Schemas/, as shipped in pytest's source package, MIT licensed): CI systems that check it
/// refuse a whole report over one attribute.
struct JUnitSchemaTests {
    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Schemas/junit-10.xsd").path

    /// xmllint's verdict on `xml`; scripts/setup installs it (Debian's libxml2-utils).
    func validate(_ xml: String, _ name: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).xml")
        try Data(xml.utf8).write(to: file)
        let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let tool = try #require(xmllint, "xmllint is missing: run scripts/setup (it installs libxml2-utils)")
        let (status, _, stderr) = try ChildProcess.run(tool, ["--noout", "--schema", Self.schema, file.path])
        #expect(status == 0, "\(name): \(String(decoding: stderr, as: UTF8.self))")
    }

    @Test func theGoldenReportIsValid() throws {
        try validate(JUnitReport.render(ReportTests.report), "golden")
    }

    @Test(arguments: VerifyOutcomeSample.allCases)
    func everyKindOfRunIsValid(sample: VerifyOutcomeSample) throws {
        try validate(JUnitReport.render(sample.report), "\(sample)")
    }

    @Test func anEmptyRunAndHostileNamesAreValid() throws {
        try validate(JUnitReport.render(VerifyReport(baseURL: "http://h", results: [], duration: .zero)), "empty")
        let request = DisplayedRequest(method: "GET", url: "http://h/\u{1}<&>\"'", headers: [], body: "\u{FFFE}]]>")
        let result = CaseResult(
            contractID: "a\"<b>&", caseName: "c\u{0}d", file: "x'y.json", outcome: .failed, request: request, response: nil,
            findings: [Finding(kind: .body, message: "]]> \u{7}", excerpt: "\u{1B}[31m")], transportError: nil, attempts: 2, duration: .seconds(3))
        try validate(JUnitReport.render(VerifyReport(baseURL: "http://h", results: [result], duration: .seconds(3))), "hostile")
    }

    @Test func aCaseWhoseDriftIsAllKnownIsSkipped() throws {
        let entry = Baseline.Entry(fingerprint: "0123456789abcdef", caseName: "c/x", reason: "API-42")
        var known = Finding(kind: .status, rule: "status", message: "expected status 204, found 200")
        known.baseline = .known(entry)
        let request = DisplayedRequest(method: "GET", url: "http://h/x", headers: [], body: nil)
        func result(_ name: String, _ findings: [Finding]) -> CaseResult {
            CaseResult(contractID: "c", caseName: name, file: "c.json", outcome: .failed, request: request, response: nil,
                findings: findings, transportError: nil, attempts: 1, duration: .zero)
        }
        let fresh = Finding(kind: .header, rule: "header.present", subject: "etag", message: "expected header 'ETag', found none")
        let report = VerifyReport(baseURL: "http://h", results: [result("known", [known]), result("mixed", [known, fresh])], duration: .zero)
        let xml = JUnitReport.render(report)
        try validate(xml, "known")
        #expect(xml.contains(#"<testsuite name="c" tests="2" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<skipped message="expected status 204, found 200" type="status">"#))
        #expect(xml.contains(#"<testsuites name="contract verify" tests="2" failures="1" errors="0""#))
    }
}
