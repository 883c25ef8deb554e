import ContractHTTP
import ContractJSON
import ContractModel

/// A JSON report of `contract verify` read back: what the run was, and every result as the run
/// had it, so that reports made from it are the ones the run would have written
/// (docs/verify-report.md). Every problem is a diagnostic placed in the file.
public struct ShardReport: Sendable {
    /// The file, as given.
    public var file: String
    public var baseURL: String
    public var run: RunIdentity
    public var duration: Duration
    /// In the whole run's plan order.
    public var results: [CaseResult]
    public var fixed: [Baseline.Entry]

    /// Reads the report in `bytes`; `file` names it in diagnostics.
    public static func read(_ bytes: [UInt8], file: String) -> Result<ShardReport, MergeError> {
        let document: JSONDocument
        do {
            document = try JSONParser().parse(bytes)
        } catch {
            return .failure(MergeError([.error("not JSON: \(error.message)", file: file, location: error.location)]))
        }
        var reader = ReportReader(document: document, file: file)
        guard let report = reader.report(), reader.problems.isEmpty else { return .failure(MergeError(reader.problems)) }
        return .success(report)
    }
}

/// Why reports cannot be merged: each problem placed in its file.
public struct MergeError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.rendered).joined(separator: "\n") }
}

/// Reads the values of a report, recording a diagnostic for each one missing or of the wrong
/// type, so one pass reports everything wrong with a file.
private struct ReportReader {
    let document: JSONDocument
    let file: String
    var problems: [Diagnostic] = []

    init(document: JSONDocument, file: String) {
        self.document = document
        self.file = file
    }

    mutating func report() -> ShardReport? {
        guard case .object(let root) = document.value, root["format"] == .string("contract-verify-report") else {
            problem("expected a JSON report of 'contract verify --report json=PATH' (format 'contract-verify-report')", at: .root)
            return nil
        }
        guard root["version"]?.numberValue?.intValue == JSONReport.version else {
            problem("expected a report of version \(JSONReport.version), found \(root["version"].map(describe) ?? "none")", at: JSONPointer(tokens: ["version"]))
            return nil
        }
        guard case .object(let runObject)? = root["run"] else {
            problem(
                "the report does not say which run it is part of ('run'): it was written by an older contract; run verify again to merge it",
                at: .root)
            return nil
        }
        let run = identity(runObject, at: JSONPointer(tokens: ["run"]))
        let baseURL = string(root, "baseURL", at: .root)
        let duration = milliseconds(root, "durationMs", at: .root)
        var results: [CaseResult] = []
        if let cases = array(root, "cases", at: .root) {
            for (index, value) in cases.enumerated() {
                let pointer = JSONPointer(tokens: ["cases", String(index)])
                guard case .object(let object) = value else {
                    problem("expected a case object", at: pointer)
                    continue
                }
                if let result = caseResult(object, at: pointer) { results.append(result) }
            }
        }
        var fixed: [Baseline.Entry] = []
        for (index, value) in (array(root, "fixed", at: .root) ?? []).enumerated() {
            let pointer = JSONPointer(tokens: ["fixed", String(index)])
            guard let object = value.objectValue, let fingerprint = string(object, "fingerprint", at: pointer),
                let caseName = string(object, "case", at: pointer)
            else { continue }
            fixed.append(Baseline.Entry(
                fingerprint: fingerprint, caseName: caseName, rule: optionalString(object, "rule", at: pointer),
                place: optionalString(object, "where", at: pointer)))
        }
        guard let run, let baseURL, let duration else { return nil }
        return ShardReport(file: file, baseURL: baseURL, run: run, duration: duration, results: results, fixed: fixed)
    }

    private mutating func identity(_ object: JSONObject, at pointer: JSONPointer) -> RunIdentity? {
        let plan = string(object, "plan", at: pointer)
        let cases = int(object, "cases", at: pointer)
        let failOnText = string(object, "failOn", at: pointer)
        let failOn = failOnText.flatMap(FailOn.init(rawValue:))
        if let failOnText, failOn == nil { problem("expected 'new' or 'any', found '\(failOnText)'", at: pointer.appending("failOn")) }
        var shard: Shard?
        if let text = optionalString(object, "shard", at: pointer) {
            shard = Shard(parsing: text)
            if shard == nil { problem("expected a shard 'i/n' with 1 <= i <= n, found '\(text)'", at: pointer.appending("shard")) }
        }
        guard let plan, let cases, let failOn else { return nil }
        return RunIdentity(
            tree: optionalString(object, "tree", at: pointer), plan: plan, cases: cases, baseline: optionalString(object, "baseline", at: pointer),
            failOn: failOn, shard: shard)
    }

    private mutating func caseResult(_ object: JSONObject, at pointer: JSONPointer) -> CaseResult? {
        let contract = string(object, "contract", at: pointer)
        let caseName = string(object, "case", at: pointer)
        let file = string(object, "file", at: pointer)
        let outcomeText = string(object, "outcome", at: pointer)
        let outcome = outcomeText.flatMap(CaseResult.Outcome.init(rawValue:))
        if let outcomeText, outcome == nil { problem("expected passed, failed or error, found '\(outcomeText)'", at: pointer.appending("outcome")) }
        let duration = milliseconds(object, "durationMs", at: pointer)
        let attempts = int(object, "attempts", at: pointer)
        let position = int(object, "position", at: pointer)
        let request = object["request"].flatMap { requestValue($0, at: pointer.appending("request")) }
        if object["request"] == nil { missing("request", at: pointer) }
        var response: ResponseSummary?
        switch object["response"] {
        case .null?: response = nil
        case .object(let value)?: response = responseSummary(value, at: pointer.appending("response"))
        default: problem("expected 'response', an object or null", at: pointer)
        }
        var transportError: TransportError?
        if case .object(let value)? = object["transportError"] { transportError = self.transportError(value, at: pointer.appending("transportError")) }
        var findings: [Finding] = []
        for (index, value) in (array(object, "findings", at: pointer) ?? []).enumerated() {
            let place = pointer.appending("findings").appending(String(index))
            guard case .object(let finding) = value else {
                problem("expected a finding object", at: place)
                continue
            }
            if let finding = self.finding(finding, caseName: "\(contract ?? "")/\(caseName ?? "")", at: place) { findings.append(finding) }
        }
        guard let contract, let caseName, let file, let outcome, let duration, let attempts, let position, let request else { return nil }
        return CaseResult(
            contractID: contract, caseName: caseName, file: file, outcome: outcome, request: request, response: response, findings: findings,
            transportError: transportError, attempts: attempts, duration: duration, position: position)
    }

    private mutating func requestValue(_ value: JSONValue, at pointer: JSONPointer) -> DisplayedRequest? {
        guard case .object(let object) = value else {
            problem("expected a request object", at: pointer)
            return nil
        }
        let method = string(object, "method", at: pointer)
        let url = string(object, "url", at: pointer)
        let headers = headerList(object, at: pointer)
        guard let method, let url, let headers else { return nil }
        return DisplayedRequest(method: method, url: url, headers: headers, body: optionalString(object, "body", at: pointer))
    }

    private mutating func responseSummary(_ object: JSONObject, at pointer: JSONPointer) -> ResponseSummary? {
        let status = int(object, "status", at: pointer)
        let version = string(object, "httpVersion", at: pointer)
        let headers = headerList(object, at: pointer)
        let bytes = int(object, "bodyBytes", at: pointer)
        var timings = HTTPTimings()
        if case .object(let times)? = object["timingsMs"] {
            let place = pointer.appending("timingsMs")
            timings.dnsLookup = milliseconds(times, "dns", at: place) ?? .zero
            timings.connect = milliseconds(times, "connect", at: place) ?? .zero
            timings.tlsHandshake = milliseconds(times, "tls", at: place) ?? .zero
            timings.firstByte = milliseconds(times, "firstByte", at: place) ?? .zero
            timings.total = milliseconds(times, "total", at: place) ?? .zero
        } else {
            missing("timingsMs", at: pointer)
        }
        guard let status, let version, let headers, let bytes else { return nil }
        return ResponseSummary(status: status, headers: HTTPHeaders(headers), httpVersion: version, bodyBytes: bytes, timings: timings)
    }

    private mutating func transportError(_ object: JSONObject, at pointer: JSONPointer) -> TransportError? {
        let kindText = string(object, "kind", at: pointer)
        let kind = kindText.flatMap(TransportError.Kind.init(rawValue:))
        if let kindText, kind == nil { problem("expected a transport error kind, found '\(kindText)'", at: pointer.appending("kind")) }
        let detail = string(object, "detail", at: pointer)
        let code = int(object, "curlCode", at: pointer)
        guard let kind, let detail, let code else { return nil }
        return TransportError(kind: kind, detail: detail, curlCode: code)
    }

    private mutating func finding(_ object: JSONObject, caseName: String, at pointer: JSONPointer) -> Finding? {
        let kindText = string(object, "kind", at: pointer)
        let kind = kindText.flatMap(Finding.Kind.init(rawValue:))
        if let kindText, kind == nil { problem("expected a finding kind, found '\(kindText)'", at: pointer.appending("kind")) }
        let message = string(object, "message", at: pointer)
        let fingerprint = string(object, "fingerprint", at: pointer)
        guard let kind, let message, let fingerprint else { return nil }
        var finding = Finding(
            kind: kind, rule: optionalString(object, "rule", at: pointer), subject: optionalString(object, "subject", at: pointer), message: message,
            pointer: optionalString(object, "pointer", at: pointer), keyword: optionalString(object, "keyword", at: pointer),
            schemaLocation: optionalString(object, "schemaLocation", at: pointer), schemaExcerpt: optionalString(object, "schemaExcerpt", at: pointer),
            excerpt: optionalString(object, "excerpt", at: pointer))
        if let status = optionalString(object, "baseline", at: pointer) {
            var entry = Baseline.Entry(fingerprint: fingerprint, caseName: caseName, rule: finding.rule)
            if case .object(let written)? = object["baselineEntry"] {
                entry.reason = optionalString(written, "reason", at: pointer.appending("baselineEntry"))
                entry.expires = optionalString(written, "expires", at: pointer.appending("baselineEntry"))
            }
            if status == "known" {
                finding.baseline = .known(entry)
            } else if status.hasPrefix("expired ") {
                entry.expires = String(status.dropFirst("expired ".count))
                finding.baseline = .expired(entry)
            } else {
                problem("expected 'known' or 'expired YYYY-MM-DD', found '\(status)'", at: pointer.appending("baseline"))
            }
        }
        return finding
    }

    private mutating func headerList(_ object: JSONObject, at pointer: JSONPointer) -> [HTTPHeader]? {
        guard let values = array(object, "headers", at: pointer) else { return nil }
        var headers: [HTTPHeader] = []
        for (index, value) in values.enumerated() {
            let place = pointer.appending("headers").appending(String(index))
            guard case .object(let header) = value, let name = string(header, "name", at: place), let text = string(header, "value", at: place)
            else { continue }
            headers.append(HTTPHeader(name, text))
        }
        return headers
    }

    // MARK: Values

    private mutating func string(_ object: JSONObject, _ key: String, at pointer: JSONPointer) -> String? {
        guard let value = object[key] else {
            missing(key, at: pointer)
            return nil
        }
        guard case .string(let text) = value else {
            problem("expected a string, found \(describe(value))", at: pointer.appending(key))
            return nil
        }
        return text
    }

    private mutating func optionalString(_ object: JSONObject, _ key: String, at pointer: JSONPointer) -> String? {
        object[key] == nil ? nil : string(object, key, at: pointer)
    }

    private mutating func int(_ object: JSONObject, _ key: String, at pointer: JSONPointer) -> Int? {
        guard let value = object[key] else {
            missing(key, at: pointer)
            return nil
        }
        guard let number = value.numberValue?.intValue, number >= 0 else {
            problem("expected a whole number from 0, found \(describe(value))", at: pointer.appending(key))
            return nil
        }
        return number
    }

    private mutating func milliseconds(_ object: JSONObject, _ key: String, at pointer: JSONPointer) -> Duration? {
        int(object, key, at: pointer).map { .milliseconds($0) }
    }

    private mutating func array(_ object: JSONObject, _ key: String, at pointer: JSONPointer) -> [JSONValue]? {
        guard let value = object[key] else {
            missing(key, at: pointer)
            return nil
        }
        guard case .array(let values) = value else {
            problem("expected an array, found \(describe(value))", at: pointer.appending(key))
            return nil
        }
        return values
    }

    private mutating func missing(_ key: String, at pointer: JSONPointer) {
        problem("missing '\(key)'", at: pointer)
    }

    private mutating func problem(_ message: String, at pointer: JSONPointer) {
        problems.append(.error(message, file: file, location: document.nearestLocation(of: pointer), pointer: pointer))
    }

    private func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let number): MessageText.clipped(number)
        case .string(let text): "'\(MessageText.clipped(text))'"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
