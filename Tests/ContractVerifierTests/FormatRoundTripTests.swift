import ContractHTTP
import ContractModel
import Foundation
import Testing

@testable import ContractVerifier

/// Each file verify writes, fed to its reader: what is read is what was written. The JSON report
/// (written by ``FileReporter``, read by ``ShardReport`` for `contract merge` and by
/// ``BaselineUpdate`` for `contract baseline`) and the baseline (``Baseline/text``, read by
/// ``Baseline/parse(_:file:)``), each with awkward text: quotes, backslashes, control
/// characters, non-ASCII, long text.
struct FormatRoundTripTests {
    /// Every kind of character JSON escapes or a reader might trip on.
    static let awkward = "quote \" backslash \\ slash / tab \t newline \n return \r nul \u{0} escape \u{1B}[31m del \u{7F} é 漢字 😀 e\u{301} \u{2028} \u{FEFF}"
    /// Longer than any text verify clips, shorter than ``ReportLimits/maxText``.
    static let long = String(repeating: "0123456789 abcdef \u{1F} ü ", count: 2_000)

    static let run = RunIdentity(
        tree: String(repeating: "a", count: 64), plan: String(repeating: "b", count: 64), cases: 4, baseline: String(repeating: "c", count: 64),
        failOn: .new, shard: nil)

    /// A run of four cases: passed, failed with findings (one known to the baseline, one
    /// expired, one new), failed with awkward and long text everywhere, and an error.
    static func results() -> [CaseResult] {
        var timings = HTTPTimings()
        timings.dnsLookup = .milliseconds(1)
        timings.connect = .milliseconds(2)
        timings.tlsHandshake = .milliseconds(3)
        timings.firstByte = .milliseconds(40)
        timings.total = .milliseconds(41)
        func response(_ status: Int, headers: HTTPHeaders = [HTTPHeader("Content-Type", "application/json")]) -> ResponseSummary {
            ResponseSummary(status: status, headers: headers, httpVersion: "HTTP/1.1", bodyBytes: 1_234, timings: timings)
        }
        func request(_ path: String, body: String? = nil) -> DisplayedRequest {
            DisplayedRequest(method: "POST", url: "http://127.0.0.1:8080\(path)", headers: [HTTPHeader("Accept", "application/json")], body: body)
        }
        var known = Finding(
            kind: .body, rule: "body.schema", message: "/price: expected number, found string '1.50'", pointer: "/price", keyword: "type",
            schemaLocation: "contracts/schemas/product.json#/properties/price/type", schemaExcerpt: #"{"type":"number"}"#, excerpt: #"…"price": "1.50"…"#)
        var expired = Finding(kind: .header, rule: "header.present", subject: "location", message: "expected header 'Location', found none")
        let new = Finding(kind: .status, rule: "status", message: "expected status 201, found 200")
        known.baseline = .known(Baseline.Entry(
            fingerprint: known.fingerprint(contract: "products.get", case: "found"), caseName: "products.get/found", rule: "body.schema",
            reason: "API-42 \(awkward)", expires: "2999-12-31"))
        expired.baseline = .expired(Baseline.Entry(
            fingerprint: expired.fingerprint(contract: "products.get", case: "found"), caseName: "products.get/found", rule: "header.present",
            expires: "2026-01-01"))
        let strange = Finding(
            kind: .body, rule: "body.\(awkward)", subject: awkward, message: long + awkward, pointer: "/\(awkward)/0", keyword: "pattern",
            schemaLocation: "schemas/\(awkward).json#/pattern", schemaExcerpt: String(long.prefix(3_000)), excerpt: awkward)
        var results = [
            CaseResult(
                contractID: "health.get", caseName: "ok", file: "contracts/health.json", outcome: .passed, request: request("/health"),
                response: response(200), findings: [], transportError: nil, attempts: 1, duration: .milliseconds(12)),
            CaseResult(
                contractID: "products.get", caseName: "found", file: "contracts/products.json", outcome: .failed, request: request("/products/1"),
                response: response(200), findings: [known, expired, new], transportError: nil, attempts: 2, duration: .milliseconds(345)),
            CaseResult(
                contractID: "odd.\(awkward)", caseName: awkward, file: "contracts/\(awkward).json", outcome: .failed,
                request: DisplayedRequest(
                    method: "PUT", url: "http://127.0.0.1:8080/\(awkward)?q=\(awkward)",
                    headers: [HTTPHeader("X-Odd", awkward), HTTPHeader("X-Long", long), HTTPHeader("X-Odd", "again")], body: long + awkward),
                response: response(422, headers: [HTTPHeader("X-Odd", awkward), HTTPHeader("Set-Cookie", "a=1"), HTTPHeader("Set-Cookie", "b=2")]),
                findings: [strange, new], transportError: nil, attempts: 1, duration: .milliseconds(7)),
            CaseResult(
                contractID: "down.get", caseName: "unreachable", file: "contracts/down.json", outcome: .error, request: request("/down"), response: nil,
                findings: [Finding(kind: .transport, message: "connection refused: \(awkward)")],
                transportError: TransportError(kind: .connectionRefused, detail: awkward, curlCode: 7), attempts: 3, duration: .milliseconds(1_000)),
        ]
        for index in results.indices { results[index].position = index }
        return results
    }

    static func report(_ results: [CaseResult], shard: Shard? = nil) -> VerifyReport {
        var summary = VerifySummary(baseURL: "http://127.0.0.1:8080", results: results, duration: .milliseconds(2_345))
        var run = Self.run
        run.shard = shard
        summary.run = run
        summary.hasBaseline = true
        summary.fixed = [Baseline.Entry(fingerprint: "0123456789abcdef", caseName: "gone.get/\(awkward)", rule: awkward, place: "/items/* \(awkward)")]
        return VerifyReport(summary: summary, results: results)
    }

    /// Each field of two results, compared: a result is not `Equatable`.
    func expectSame(_ read: [CaseResult], _ written: [CaseResult], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.count == written.count, sourceLocation: sourceLocation)
        for (back, original) in zip(read, written) {
            #expect(back.contractID == original.contractID && back.caseName == original.caseName && back.file == original.file, sourceLocation: sourceLocation)
            #expect(back.outcome == original.outcome && back.attempts == original.attempts && back.duration == original.duration, sourceLocation: sourceLocation)
            #expect(back.position == original.position, sourceLocation: sourceLocation)
            #expect(back.request == original.request, "\(original.name)", sourceLocation: sourceLocation)
            #expect(back.findings == original.findings, "\(original.name)", sourceLocation: sourceLocation)
            #expect(back.response?.status == original.response?.status && back.response?.headers == original.response?.headers, sourceLocation: sourceLocation)
            #expect(back.response?.httpVersion == original.response?.httpVersion && back.response?.bodyBytes == original.response?.bodyBytes, sourceLocation: sourceLocation)
            #expect(back.response?.timings == original.response?.timings, sourceLocation: sourceLocation)
            #expect(back.transportError?.kind == original.transportError?.kind, sourceLocation: sourceLocation)
            #expect(back.transportError?.detail == original.transportError?.detail, sourceLocation: sourceLocation)
            #expect(back.transportError?.curlCode == original.transportError?.curlCode, sourceLocation: sourceLocation)
        }
    }

    func expectSame(_ read: VerifySummary, _ written: VerifySummary, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.baseURL == written.baseURL && read.duration == written.duration, sourceLocation: sourceLocation)
        #expect([read.total, read.passed, read.failed, read.errors, read.unreachable] as [Int] == [written.total, written.passed, written.failed, written.errors, written.unreachable], sourceLocation: sourceLocation)
        #expect([read.newFindings, read.knownFindings] as [Int] == [written.newFindings, written.knownFindings], sourceLocation: sourceLocation)
        #expect(read.fixed == written.fixed && read.run == written.run && read.failOn == written.failOn, sourceLocation: sourceLocation)
        #expect(read.exitCode == written.exitCode, sourceLocation: sourceLocation)
    }

    /// The report as `--report json=PATH` writes it, read by merge's reader and by baseline's.
    @Test func aJSONReportReadsBackAsItWasWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-round-trip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = Self.report(Self.results())
        let path = folder.appendingPathComponent("report.json").path
        try FileReporter(kind: .json, path: path).replay(original)

        let read = try ShardReport.read(path: path).get()
        #expect(read.baseURL == original.baseURL && read.run == original.summary.run && read.duration == original.duration)
        #expect(read.fixed == original.summary.fixed)
        expectSame(read.results, original.results)
        let merged = try ShardMerge.merge([read]).get()
        expectSame(merged.summary, original.summary)
        expectSame(merged.results, original.results)

        // `contract baseline`: an entry per distinct finding, each named as the report names it.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let outcome = try BaselineUpdate.make(report: bytes, reportFile: path, previous: nil, reason: Self.awkward, expires: "2999-01-31").get()
        var expected: [Baseline.Entry] = []
        for result in original.results {
            for finding in result.findings where !expected.contains(where: { $0.fingerprint == finding.fingerprint(contract: result.contractID, case: result.caseName) }) {
                expected.append(Baseline.Entry(
                    fingerprint: finding.fingerprint(contract: result.contractID, case: result.caseName), caseName: result.name, rule: finding.rule))
            }
        }
        #expect(outcome.baseline.entries.map(\.fingerprint).sorted() == expected.map(\.fingerprint).sorted())
        #expect(outcome.baseline.entries.map(\.caseName).sorted() == expected.map(\.caseName).sorted())
        #expect(outcome.baseline.entries.allSatisfy { $0.reason == Self.awkward && $0.expires == "2999-01-31" })
        #expect(outcome.added == expected.count)
    }

    /// The parts of a sharded run, each written and read back, are the whole run again.
    @Test func shardReportsReadBackAsTheirParts() throws {
        let results = Self.results()
        let whole = Self.report(results)
        let parts = [[0, 2], [1, 3]].enumerated().map { index, positions in
            Self.report(positions.map { results[$0] }, shard: Shard(index: index + 1, count: 2))
        }
        let read = try parts.enumerated().map { index, part in
            try ShardReport.read(Array(JSONReport.render(part).utf8), file: "shard\(index + 1).json").get()
        }
        for (back, part) in zip(read, parts) {
            #expect(back.run == part.summary.run)
            expectSame(back.results, part.results)
        }
        let merged = try ShardMerge.merge(read).get()
        expectSame(merged.results, whole.results)
        expectSame(merged.summary, whole.summary)
    }

    /// Every optional field and awkward text, in a baseline written and read back.
    @Test func aBaselineReadsBackAsItWasWritten() throws {
        let entries = [
            Baseline.Entry(
                fingerprint: "0123456789abcdef", caseName: "odd.\(Self.awkward)/\(Self.awkward)", rule: Self.awkward, place: "/\(Self.awkward) type",
                reason: Self.long, expires: "2028-02-29"),
            Baseline.Entry(fingerprint: "fedcba9876543210", caseName: "a/b"),
            Baseline.Entry(fingerprint: "00000000deadbeef", caseName: "a/b", rule: "", place: "", reason: "", expires: nil),
            Baseline.Entry(fingerprint: "1111111111111111", caseName: "", reason: "\u{0}", expires: "2000-01-01"),
        ]
        let baseline = Baseline(entries: entries)
        let read = try Baseline.parse(Array(baseline.text.utf8), file: "baseline.json").get()
        #expect(read == baseline)
        #expect(read.text == baseline.text)
        #expect(Set(read.entries) == Set(entries))
        // One entry a line, whatever the text holds.
        #expect(baseline.text.split(separator: "\n").count == 4 + entries.count + 2)
    }
}
