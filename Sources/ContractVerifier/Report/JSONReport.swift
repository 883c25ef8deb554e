import ContractHTTP
import ContractJSON

/// `--report json=PATH`: every result with every finding, for tools. The layout is documented in
/// docs/verify-report.md and versioned; keys are written sorted, so equal runs give equal files.
/// Written case by case: the top-level keys sort as `baseURL`, `cases`, then the totals, so the
/// totals can follow the cases.
struct JSONReport: ReportFormat {
    static let version = 1
    private static let writer = CanonicalJSONWriter(style: .pretty)
    private static let casesKey = #""cases": ["#
    private var cases = 0

    func opening(baseURL: String, total: Int) -> String {
        let skeleton = Self.writer.string(Self.document(baseURL: baseURL, totals: [:]))
        return String(skeleton[..<Self.casesEnd(in: skeleton)])
    }

    mutating func adding(_ result: CaseResult) -> String {
        defer { cases += 1 }
        return (cases == 0 ? "" : ",") + "\n    " + Self.writer.string(Self.caseObject(result), nestedAt: 2)
    }

    func closing(_ report: VerifySummary) -> (header: String, trailer: String) {
        let totals: KeyValuePairs<String, JSONValue> = [
            "durationMs": Self.number(ReportFormatting.milliseconds(report.duration)),
            "exitCode": Self.number(Int(report.exitCode)),
            "summary": Self.object([
                "total": Self.number(report.total), "passed": Self.number(report.passed), "failed": Self.number(report.failed),
                "errors": Self.number(report.errors),
            ]),
            "findings": Self.object(["new": Self.number(report.newFindings), "known": Self.number(report.knownFindings)]),
            "fixed": .array(report.fixed.map(Self.fixedObject)),
            "run": report.run.map(Self.runObject) ?? .null,
        ]
        let skeleton = Self.writer.string(Self.document(baseURL: report.baseURL, totals: totals.filter { $0.value != .null }))
        // The skeleton's empty `[]` closes the array the cases were written into.
        let rest = skeleton[Self.casesEnd(in: skeleton)...]
        // The file has always ended in a blank line; kept, so that reports stay byte-comparable.
        return ("", (cases == 0 ? "" : "\n  ") + rest + "\n")
    }

    /// Where the cases go in the skeleton: after `"cases": [`, which the writer always writes
    /// for the empty array (an empty array is written `[]`, never on two lines).
    private static func casesEnd(in skeleton: String) -> String.Index {
        skeleton.range(of: casesKey)?.upperBound ?? skeleton.endIndex
    }

    /// The report without its cases.
    private static func document(baseURL: String, totals: some Sequence<(key: String, value: JSONValue)>) -> JSONValue {
        var members = [
            JSONObject.Member(key: "format", value: "contract-verify-report"),
            JSONObject.Member(key: "version", value: .number(JSONNumber(version))),
            JSONObject.Member(key: "baseURL", value: .string(baseURL)),
            JSONObject.Member(key: "cases", value: .array([])),
        ]
        members += totals.map { JSONObject.Member(key: $0.key, value: $0.value) }
        return .object(JSONObject(members))
    }

    private static func caseObject(_ result: CaseResult) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(result.name),
            "contract": .string(result.contractID),
            "case": .string(result.caseName),
            "file": .string(result.file),
            "outcome": .string(result.outcome.rawValue),
            "durationMs": number(ReportFormatting.milliseconds(result.duration)),
            "attempts": number(result.attempts),
            "request": requestObject(result.request),
            "response": result.response.map(responseObject) ?? .null,
            "findings": .array(result.findings.map { findingObject($0, of: result) }),
            "curl": .string(CurlCommand.line(for: result.request)),
        ]
        if let position = result.position { members["position"] = number(position) }
        if !result.teardown.isEmpty { members["teardown"] = .array(result.teardown.map { findingObject($0, of: result) }) }
        // Only for a case that did not pass and had setup steps before its deciding request.
        if !result.chain.isEmpty { members["setup"] = .array(result.chain.map(chainObject)) }
        if let error = result.transportError {
            members["transportError"] = object([
                "kind": .string(error.kind.rawValue), "detail": .string(error.detail), "curlCode": number(error.curlCode),
                "unreachable": .bool(error.isUnreachable),
            ])
        }
        return .object(JSONObject(members.map { JSONObject.Member(key: $0.key, value: $0.value) }))
    }

    private static func requestObject(_ request: DisplayedRequest) -> JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "method", value: .string(request.method)), .init(key: "url", value: .string(request.url)),
            .init(key: "headers", value: headers(request.headers)),
        ]
        if let body = request.body { members.append(.init(key: "body", value: .string(body))) }
        return .object(JSONObject(members))
    }

    /// A setup step sent before the deciding request: its name, its request, and the curl line
    /// that sends it again.
    private static func chainObject(_ step: ChainStep) -> JSONValue {
        object([
            "name": .string(step.name), "request": requestObject(step.request), "curl": .string(CurlCommand.line(for: step.request)),
        ])
    }

    private static func responseObject(_ response: ResponseSummary) -> JSONValue {
        let timings = response.timings
        return object([
            "status": number(response.status),
            "httpVersion": .string(response.httpVersion),
            "headers": headers(response.headers),
            "bodyBytes": number(response.bodyBytes),
            "timingsMs": object([
                "dns": number(ReportFormatting.milliseconds(timings.dnsLookup)),
                "connect": number(ReportFormatting.milliseconds(timings.connect)),
                "tls": number(ReportFormatting.milliseconds(timings.tlsHandshake)),
                "firstByte": number(ReportFormatting.milliseconds(timings.firstByte)),
                "total": number(ReportFormatting.milliseconds(timings.total)),
            ]),
        ])
    }

    private static func findingObject(_ finding: Finding, of result: CaseResult) -> JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "kind", value: .string(finding.kind.rawValue)), .init(key: "message", value: .string(finding.message)),
            .init(key: "fingerprint", value: .string(finding.fingerprint(contract: result.contractID, case: result.caseName))),
        ]
        if let rule = finding.rule { members.append(.init(key: "rule", value: .string(rule))) }
        if let subject = finding.subject { members.append(.init(key: "subject", value: .string(subject))) }
        switch finding.baseline {
        case .known(let entry)?:
            members.append(.init(key: "baseline", value: "known"))
            if let entry = entryObject(entry) { members.append(.init(key: "baselineEntry", value: entry)) }
        case .expired(let entry)?:
            members.append(.init(key: "baseline", value: .string("expired \(entry.expires ?? "")")))
            if let entry = entryObject(entry) { members.append(.init(key: "baselineEntry", value: entry)) }
        case nil: break
        }
        if let pointer = finding.pointer { members.append(.init(key: "pointer", value: .string(pointer))) }
        if let keyword = finding.keyword { members.append(.init(key: "keyword", value: .string(keyword))) }
        if let location = finding.schemaLocation { members.append(.init(key: "schemaLocation", value: .string(location))) }
        if let schema = finding.schemaExcerpt { members.append(.init(key: "schemaExcerpt", value: .string(schema))) }
        if let excerpt = finding.excerpt { members.append(.init(key: "excerpt", value: .string(excerpt))) }
        return .object(JSONObject(members))
    }

    /// What people wrote in the baseline entry that lists a finding: its reason and expiry.
    private static func entryObject(_ entry: Baseline.Entry) -> JSONValue? {
        var members: [JSONObject.Member] = []
        if let reason = entry.reason { members.append(.init(key: "reason", value: .string(reason))) }
        if let expires = entry.expires { members.append(.init(key: "expires", value: .string(expires))) }
        return members.isEmpty ? nil : .object(JSONObject(members))
    }

    /// What the run was: the tree, the whole plan, the baseline, what fails it, and the shard.
    private static func runObject(_ run: RunIdentity) -> JSONValue {
        var members: [JSONObject.Member] = [
            .init(key: "plan", value: .string(run.plan)), .init(key: "cases", value: number(run.cases)),
            .init(key: "failOn", value: .string(run.failOn.rawValue)),
        ]
        if let tree = run.tree { members.append(.init(key: "tree", value: .string(tree))) }
        if let baseline = run.baseline { members.append(.init(key: "baseline", value: .string(baseline))) }
        if let shard = run.shard { members.append(.init(key: "shard", value: .string(shard.description))) }
        return .object(JSONObject(members))
    }

    private static func fixedObject(_ entry: Baseline.Entry) -> JSONValue {
        var members: [JSONObject.Member] = [.init(key: "fingerprint", value: .string(entry.fingerprint)), .init(key: "case", value: .string(entry.caseName))]
        if let rule = entry.rule { members.append(.init(key: "rule", value: .string(rule))) }
        if let place = entry.place { members.append(.init(key: "where", value: .string(place))) }
        return .object(JSONObject(members))
    }

    private static func headers(_ headers: some Sequence<HTTPHeader>) -> JSONValue {
        .array(headers.map { object(["name": .string($0.name), "value": .string($0.value)]) })
    }

    private static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(JSONObject(pairs.map { JSONObject.Member(key: $0.key, value: $0.value) }))
    }

    private static func number(_ value: Int) -> JSONValue {
        .number(JSONNumber(value))
    }
}
