import ContractFiles
import ContractHTTP
import ContractJSON
import ContractModel

/// What a JSON report of `contract verify` may hold, as verify writes it, and so what its readers
/// (`contract merge`, `contract baseline`) accept: a report is a file anyone can edit, and every
/// count, index and duration in it is checked against these and against the rest of the file
/// before anything is made from it. docs/verify-report.md lists them.
public enum ReportLimits {
    /// The largest report read: 1 GiB. A run of 100,000 cases with drift in every one writes
    /// about 300 MB; the tape a report is read into holds offsets of 31 bits.
    public static let maxFileBytes = 1 << 30
    /// Cases in one run, every shard together: a million, a hundred times the largest trees seen.
    public static let maxCases = 1_000_000
    /// Findings of one case. Verify keeps 100 schema findings per body (one more counts the
    /// rest), and adds one per header the case expects and a few others (status, content type,
    /// repeated headers and members, encoding): a thousand is more than any contract asks for.
    public static let maxFindings = 1_000
    /// Setup requests of one case (`setup`): one per setup step sent before the deciding request,
    /// one after another. Flows write a handful, and the longest dozens; ten thousand requests in
    /// a row before one case is no flow anyone writes.
    public static let maxSetupRequests = 10_000
    /// Headers of a request or a response. libcurl refuses a response whose header lines pass
    /// 300 KiB, and a line is 3 bytes at least (`a:` and its end).
    public static let maxHeaders = 102_400
    /// Bytes of any one text verify does not clip (a message, a URL, a header value, a path): a
    /// header value is 100 KiB at most (libcurl), six times as long with its control characters
    /// escaped; messages quote clipped values. A request's body, written in the contract, is
    /// bounded by the file only.
    public static let maxText = 1 << 20
    /// Characters of the texts verify clips (a body excerpt around 80, a schema excerpt to
    /// 400): masking a secret (`***` for one character) and escaping a control character
    /// (`\u{1B}` for one) can make a clipped text longer, never ten times as long. A longer one is
    /// clipped where it is read, as verify would have.
    public static let maxClipped = 4_000
    /// Milliseconds of a duration or a timing: 10^12, a billion seconds, verify's longest
    /// `--timeout`. A run's sums stay far from what an `Int` holds.
    public static let maxMilliseconds = 1_000_000_000_000
    /// Attempts of one request: verify sends one at most 1 + `--retries` (at most 100) times, or,
    /// for a teardown step, 3 times more; a million is far beyond either.
    public static let maxAttempts = 1_000_000
    /// A response's body: the most verify reads (`HTTPOptions.maxBodyBytes`, 32 MiB).
    public static let maxBodyBytes = HTTPOptions().maxBodyBytes
    /// Baseline entries a report lists as fixed: they come from a baseline.
    public static let maxFixed = Baseline.maxEntries
}

/// A JSON report of `contract verify` read back: every field a report shows, each checked
/// against ``ReportLimits`` and the others, every problem a diagnostic placed in the file (its
/// JSON Pointer, line and column, and what was expected). The one reader of reports:
/// ``ShardReport`` (for `contract merge`) and ``BaselineUpdate`` (for `contract baseline`) both
/// take what it reads.
struct ReportReader {
    /// What a report says.
    struct Contents {
        var baseURL: String
        /// Nil only when not required: a report written before reports said what run they are.
        var run: RunIdentity?
        var duration: Duration
        /// In the file's order (a run's plan order).
        var results: [CaseResult]
        var fixed: [Baseline.Entry]
    }

    /// Reads the report in `bytes`; `file` names it in diagnostics.
    /// - Parameter requiresRun: `contract merge` needs `run` and each case's `position`;
    ///   `contract baseline` reads older reports without them too (and checks them when present).
    static func read(_ bytes: [UInt8], file: String, requiresRun: Bool) -> Result<Contents, DiagnosticsError> {
        guard bytes.count <= ReportLimits.maxFileBytes else {
            return .failure(DiagnosticsError([.error("expected a report of at most \(InputFile.describe(bytes: ReportLimits.maxFileBytes)), found \(ResponseChecker.grouped(bytes.count)) bytes", file: file)]))
        }
        let document: TapeDocument
        switch TapeDocument.parse(bytes, file: file) {
        case .success(let parsed): document = parsed
        case .failure(let problems): return .failure(problems)
        }
        var checked = document
        if checked.findsRepeatedKey() { return .failure(DiagnosticsError(checked.problems)) }
        var reader = ReportReader(document: document, requiresRun: requiresRun)
        let contents = reader.report()
        guard let contents, !reader.document.hasProblems else { return .failure(DiagnosticsError(reader.document.problems)) }
        return .success(contents)
    }

    private var document: TapeDocument
    private let requiresRun: Bool
    /// Every text read that is too long to be stored inline, once: a report repeats most of its
    /// texts (a file, a schema's place and excerpt, a message but for an index) case after case,
    /// and all of a merge's results are held until the reports are written.
    private var texts: Set<String> = []

    private init(document: TapeDocument, requiresRun: Bool) {
        self.document = document
        self.requiresRun = requiresRun
    }

    // MARK: The report

    private mutating func report() -> Contents? {
        let root = 0
        guard document.kind(root) == .object, let format = document.member("format", of: root), document.equals(format, "contract-verify-report") else {
            problem("expected a JSON report of 'contract verify --report json=PATH' (format 'contract-verify-report')", at: .root, entry: root)
            return nil
        }
        guard let version = document.member("version", of: root), document.kind(version) == .number,
            document.number(version).intValue == JSONReport.version
        else {
            let found = document.member("version", of: root)
            problem("expected a report of version \(JSONReport.version), found \(found.map(document.describe) ?? "none")",
                at: JSONPointer(tokens: ["version"]), entry: found ?? root)
            return nil
        }
        var run: RunIdentity?
        // A `run` with a problem: the cases are still read (bounded by the limits alone), so one
        // pass says everything wrong with the file.
        var runIsWrong = false
        if let runObject = document.member("run", of: root), document.kind(runObject) == .object {
            run = identity(runObject, at: JSONPointer(tokens: ["run"]))
            runIsWrong = run == nil
        } else if requiresRun || document.member("run", of: root) != nil {
            problem(
                "the report does not say which run it is part of ('run'): it was written by an older contract; run verify again to merge it",
                at: .root, entry: root)
            return nil
        }
        let baseURL = text(root, "baseURL", at: .root)
        let duration = milliseconds(root, "durationMs", at: .root)
        var results: [CaseResult] = []
        if let cases = array(root, "cases", at: .root, atMost: run?.cases ?? ReportLimits.maxCases,
            what: run == nil ? "cases (a run has at most \(ResponseChecker.grouped(ReportLimits.maxCases)))" : "cases (the run's 'cases' says \(ResponseChecker.grouped(run?.cases ?? 0)))")
        {
            results.reserveCapacity(document.count(cases))
            for (index, element) in document.elements(cases).enumerated() {
                guard !document.isFull else { break }
                let pointer = JSONPointer(tokens: ["cases", String(index)])
                guard document.kind(element) == .object else {
                    problem("expected a case object, found \(document.describe(element))", at: pointer, entry: element)
                    continue
                }
                if let result = caseResult(element, at: pointer, run: run) { results.append(result) }
            }
        }
        var fixed: [Baseline.Entry] = []
        if let entries = array(root, "fixed", at: .root, atMost: ReportLimits.maxFixed, what: "fixed entries (a baseline has at most \(ResponseChecker.grouped(ReportLimits.maxFixed)))") {
            for (index, element) in document.elements(entries).enumerated() {
                guard !document.isFull else { break }
                let pointer = JSONPointer(tokens: ["fixed", String(index)])
                guard document.kind(element) == .object else {
                    problem("expected a baseline entry object, found \(document.describe(element))", at: pointer, entry: element)
                    continue
                }
                let fingerprint = self.fingerprint(element, at: pointer)
                let caseName = text(element, "case", at: pointer)
                let rule = optionalText(element, "rule", at: pointer)
                let place = optionalText(element, "where", at: pointer)
                guard let fingerprint, let caseName else { continue }
                fixed.append(Baseline.Entry(fingerprint: fingerprint, caseName: caseName, rule: rule, place: place))
            }
        }
        guard let baseURL, let duration, !runIsWrong else { return nil }
        return Contents(baseURL: baseURL, run: run, duration: duration, results: results, fixed: fixed)
    }

    private mutating func identity(_ object: Int, at pointer: JSONPointer) -> RunIdentity? {
        let plan = text(object, "plan", at: pointer)
        let cases = int(object, "cases", at: pointer, in: 0...ReportLimits.maxCases, what: "cases in a run")
        let failOnText = text(object, "failOn", at: pointer)
        let failOn = failOnText.flatMap(FailOn.init(rawValue:))
        if let failOnText, failOn == nil, let value = document.member("failOn", of: object) {
            problem("expected 'new' or 'any', found '\(MessageText.clipped(failOnText))'", at: pointer.appending("failOn"), entry: value)
        }
        var shard: Shard?
        if let text = optionalText(object, "shard", at: pointer), let value = document.member("shard", of: object) {
            shard = Shard(parsing: text)
            if shard == nil {
                problem("expected a shard 'i/n' with 1 <= i <= n <= \(Shard.maxCount), found '\(MessageText.clipped(text))'", at: pointer.appending("shard"), entry: value)
            } else if let parsed = shard, parsed.count > Shard.maxCount {
                problem("expected a shard 'i/n' with n at most \(Shard.maxCount) (the most verify splits a run in), found '\(parsed)'", at: pointer.appending("shard"), entry: value)
                shard = nil
            }
        }
        let tree = optionalText(object, "tree", at: pointer)
        let baseline = optionalText(object, "baseline", at: pointer)
        guard let plan, let cases, let failOn, document.member("shard", of: object) == nil || shard != nil else { return nil }
        return RunIdentity(tree: tree, plan: plan, cases: cases, baseline: baseline, failOn: failOn, shard: shard)
    }

    // MARK: A case

    private mutating func caseResult(_ object: Int, at pointer: JSONPointer, run: RunIdentity?) -> CaseResult? {
        let contract = text(object, "contract", at: pointer)
        let caseName = text(object, "case", at: pointer)
        let file = text(object, "file", at: pointer)
        let outcomeText = text(object, "outcome", at: pointer)
        let outcome = outcomeText.flatMap(CaseResult.Outcome.init(rawValue:))
        if let outcomeText, outcome == nil, let value = document.member("outcome", of: object) {
            problem("expected passed, failed or error, found '\(MessageText.clipped(outcomeText))'", at: pointer.appending("outcome"), entry: value)
        }
        let duration = milliseconds(object, "durationMs", at: pointer)
        let attempts = int(object, "attempts", at: pointer, in: 0...ReportLimits.maxAttempts, what: "attempts")
        var position: Int?
        if let run {
            // Its place in the whole run: below the run's count of cases.
            position = int(object, "position", at: pointer, in: 0...max(run.cases - 1, 0), what: "a place in the run's \(ResponseChecker.grouped(run.cases)) cases, from 0")
            if run.cases == 0, position != nil, let value = document.member("position", of: object) {
                problem("expected no case: the run's 'cases' says 0", at: pointer.appending("position"), entry: value)
                position = nil
            }
        } else if document.member("position", of: object) != nil {
            position = int(object, "position", at: pointer, in: 0...(ReportLimits.maxCases - 1), what: "a place in a run, from 0")
        }
        var request: DisplayedRequest?
        if let value = document.member("request", of: object) {
            request = requestValue(value, at: pointer.appending("request"))
        } else {
            missing("request", at: pointer, entry: object)
        }
        var response: ResponseSummary?
        switch document.member("response", of: object) {
        case let value? where document.kind(value) == .null: response = nil
        case let value? where document.kind(value) == .object: response = responseSummary(value, at: pointer.appending("response"))
        case let value?: problem("expected an object or null, found \(document.describe(value))", at: pointer.appending("response"), entry: value)
        case nil: missing("response", at: pointer, entry: object)
        }
        var transportError: TransportError?
        if let value = document.member("transportError", of: object), document.kind(value) == .object {
            transportError = self.transportError(value, at: pointer.appending("transportError"))
        }
        let caseID = "\(contract ?? "")/\(caseName ?? "")"
        let findings = findingList(object, "findings", caseID: caseID, at: pointer) ?? []
        // Written only when a teardown step failed.
        let teardown = document.member("teardown", of: object) == nil ? [] : findingList(object, "teardown", caseID: caseID, at: pointer) ?? []
        // Written only for a case that did not pass after setup steps; reports before it have none.
        let chain = document.member("setup", of: object) == nil ? [] : chainList(object, at: pointer)
        guard let contract, let caseName, let file, let outcome, let duration, let attempts, let request, let chain else { return nil }
        if run != nil, position == nil { return nil }
        return CaseResult(
            contractID: contract, caseName: caseName, file: file, outcome: outcome, request: request, response: response, findings: findings,
            transportError: transportError, attempts: attempts, duration: duration, position: position, teardown: teardown, chain: chain)
    }

    /// A case's `setup`: the setup steps sent before its deciding request, each a name and a
    /// request read as the case's `request` is (its `curl` is written again from the request).
    /// Nil when the list or any step in it is malformed: a reproduction with a step left out
    /// would not reproduce.
    private mutating func chainList(_ object: Int, at pointer: JSONPointer) -> [ChainStep]? {
        guard let list = array(object, "setup", at: pointer, atMost: ReportLimits.maxSetupRequests, what: "setup requests in a case") else { return nil }
        var chain: [ChainStep] = []
        chain.reserveCapacity(document.count(list))
        var complete = true
        for (index, element) in document.elements(list).enumerated() {
            guard !document.isFull else { return nil }
            let place = pointer.appending("setup").appending(String(index))
            guard document.kind(element) == .object else {
                problem("expected a setup step object, found \(document.describe(element))", at: place, entry: element)
                complete = false
                continue
            }
            let name = text(element, "name", at: place)
            var request: DisplayedRequest?
            if let value = document.member("request", of: element) {
                request = requestValue(value, at: place.appending("request"))
            } else {
                missing("request", at: place, entry: element)
            }
            guard let name, let request else {
                complete = false
                continue
            }
            chain.append(ChainStep(name: name, request: request))
        }
        return complete ? chain : nil
    }

    /// A case's list of findings under `key` (`findings`, `teardown`), each checked; nil when the
    /// list is missing or not one.
    private mutating func findingList(_ object: Int, _ key: StaticString, caseID: String, at pointer: JSONPointer) -> [Finding]? {
        let teardown = "\(key)" == "teardown"
        guard let list = array(object, key, at: pointer, atMost: ReportLimits.maxFindings, what: teardown ? "teardown findings in a case" : "findings in a case")
        else { return nil }
        var findings: [Finding] = []
        findings.reserveCapacity(document.count(list))
        for (index, element) in document.elements(list).enumerated() {
            guard !document.isFull else { break }
            let place = pointer.appending("\(key)").appending(String(index))
            guard document.kind(element) == .object else {
                problem("expected a finding object, found \(document.describe(element))", at: place, entry: element)
                continue
            }
            if let finding = self.finding(element, caseName: caseID, teardown: teardown, at: place) { findings.append(finding) }
        }
        return findings
    }

    private mutating func requestValue(_ object: Int, at pointer: JSONPointer) -> DisplayedRequest? {
        guard document.kind(object) == .object else {
            problem("expected a request object, found \(document.describe(object))", at: pointer, entry: object)
            return nil
        }
        let method = text(object, "method", at: pointer)
        let url = text(object, "url", at: pointer)
        let headers = headerList(object, at: pointer)
        // The body as the contract wrote it: bounded by the file alone.
        let body = optionalText(object, "body", at: pointer, atMost: ReportLimits.maxFileBytes)
        guard let method, let url, let headers else { return nil }
        return DisplayedRequest(method: method, url: url, headers: headers, body: body)
    }

    private mutating func responseSummary(_ object: Int, at pointer: JSONPointer) -> ResponseSummary? {
        let status = int(object, "status", at: pointer, in: 0...999, what: "an HTTP status")
        let version = text(object, "httpVersion", at: pointer)
        let headers = headerList(object, at: pointer)
        let bytes = int(object, "bodyBytes", at: pointer, in: 0...ReportLimits.maxBodyBytes, what: "bytes of a body verify read (at most \(InputFile.describe(bytes: ReportLimits.maxBodyBytes)))")
        var timings = HTTPTimings()
        if let times = document.member("timingsMs", of: object), document.kind(times) == .object {
            let place = pointer.appending("timingsMs")
            timings.dnsLookup = timing(times, "dns", at: place)
            timings.connect = timing(times, "connect", at: place)
            timings.tlsHandshake = timing(times, "tls", at: place)
            timings.firstByte = timing(times, "firstByte", at: place)
            timings.total = timing(times, "total", at: place)
        } else {
            missing("timingsMs", at: pointer, entry: object)
        }
        guard let status, let version, let headers, let bytes else { return nil }
        return ResponseSummary(status: status, headers: HTTPHeaders(headers), httpVersion: version, bodyBytes: bytes, timings: timings)
    }

    private mutating func transportError(_ object: Int, at pointer: JSONPointer) -> TransportError? {
        let kindText = text(object, "kind", at: pointer)
        let kind = kindText.flatMap(TransportError.Kind.init(rawValue:))
        if let kindText, kind == nil, let value = document.member("kind", of: object) {
            problem("expected a transport error kind, found '\(MessageText.clipped(kindText))'", at: pointer.appending("kind"), entry: value)
        }
        let detail = text(object, "detail", at: pointer)
        let code = int(object, "curlCode", at: pointer, in: 0...9_999, what: "a libcurl error code")
        guard let kind, let detail, let code else { return nil }
        return TransportError(kind: kind, detail: detail, curlCode: code)
    }

    /// - Parameter teardown: the finding is of a teardown step (in the case's `teardown`), whose
    ///   kind is `teardown` and only there.
    private mutating func finding(_ object: Int, caseName: String, teardown: Bool, at pointer: JSONPointer) -> Finding? {
        let kindText = text(object, "kind", at: pointer)
        var kind = kindText.flatMap(Finding.Kind.init(rawValue:))
        if let kindText, kind == nil, let value = document.member("kind", of: object) {
            problem("expected a finding kind, found '\(MessageText.clipped(kindText))'", at: pointer.appending("kind"), entry: value)
        } else if let found = kind, (found == .teardown) != teardown, let value = document.member("kind", of: object) {
            // Verify writes teardown findings apart from the case's; one elsewhere would count as drift.
            problem(teardown ? "expected 'teardown' in a case's teardown, found '\(found)'" : "expected a finding kind other than 'teardown' among a case's findings",
                at: pointer.appending("kind"), entry: value)
            kind = nil
        }
        let message = text(object, "message", at: pointer)
        let fingerprint = self.fingerprint(object, at: pointer)
        let rule = optionalText(object, "rule", at: pointer)
        let subject = optionalText(object, "subject", at: pointer)
        let findingPointer = optionalText(object, "pointer", at: pointer)
        let keyword = optionalText(object, "keyword", at: pointer)
        let schemaLocation = optionalText(object, "schemaLocation", at: pointer)
        let schemaExcerpt = clippedText(object, "schemaExcerpt", at: pointer)
        let excerpt = clippedText(object, "excerpt", at: pointer)
        let status = optionalText(object, "baseline", at: pointer)
        var reason: String?
        var expires: String?
        if let written = document.member("baselineEntry", of: object), document.kind(written) == .object {
            reason = optionalText(written, "reason", at: pointer.appending("baselineEntry"))
            expires = optionalText(written, "expires", at: pointer.appending("baselineEntry"))
        }
        guard let kind, let message, let fingerprint else { return nil }
        var finding = Finding(
            kind: kind, rule: rule, subject: subject, message: message, pointer: findingPointer, keyword: keyword, schemaLocation: schemaLocation,
            schemaExcerpt: schemaExcerpt, excerpt: excerpt)
        if let status {
            var entry = Baseline.Entry(fingerprint: fingerprint, caseName: caseName, rule: rule, reason: reason, expires: expires)
            if status == "known" {
                finding.baseline = .known(entry)
            } else if status.hasPrefix("expired "), CalendarDay.isValid(String(status.dropFirst("expired ".count))) {
                entry.expires = String(status.dropFirst("expired ".count))
                finding.baseline = .expired(entry)
            } else if let value = document.member("baseline", of: object) {
                problem("expected 'known' or 'expired YYYY-MM-DD', found '\(MessageText.clipped(status))'", at: pointer.appending("baseline"), entry: value)
            }
        }
        return finding
    }

    private mutating func headerList(_ object: Int, at pointer: JSONPointer) -> [HTTPHeader]? {
        guard let list = array(object, "headers", at: pointer, atMost: ReportLimits.maxHeaders, what: "headers") else { return nil }
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(document.count(list))
        var complete = true
        for (index, element) in document.elements(list).enumerated() {
            guard !document.isFull else { return nil }
            let place = pointer.appending("headers").appending(String(index))
            guard document.kind(element) == .object else {
                problem("expected a header object, found \(document.describe(element))", at: place, entry: element)
                complete = false
                continue
            }
            guard let name = text(element, "name", at: place), let value = text(element, "value", at: place) else {
                complete = false
                continue
            }
            headers.append(HTTPHeader(name, value))
        }
        return complete ? headers : nil
    }

    /// A finding's or an entry's fingerprint, as verify writes it: 16 lowercase hex digits.
    private mutating func fingerprint(_ object: Int, at pointer: JSONPointer) -> String? {
        guard let value = document.member("fingerprint", of: object) else {
            missing("fingerprint", at: pointer, entry: object)
            return nil
        }
        guard document.kind(value) == .string, document.count(value) == 16, let text = Optional(document.string(value)),
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        else {
            problem("expected a fingerprint of 16 lowercase hex digits, found \(document.describe(value))", at: pointer.appending("fingerprint"), entry: value)
            return nil
        }
        return text
    }

    // MARK: Values

    /// The member `key` of `object` when it is there and of `kind` (`what` it is called in the
    /// message); a problem recorded otherwise, the member's absence unless `optional`.
    private mutating func member(
        _ object: Int, _ key: StaticString, at pointer: JSONPointer, _ kind: JSONTape.Kind, _ what: String, optional: Bool = false
    ) -> Int? {
        guard let value = document.member(key, of: object) else {
            if !optional { missing("\(key)", at: pointer, entry: object) }
            return nil
        }
        guard document.kind(value) == kind else {
            problem("expected \(what), found \(document.describe(value))", at: pointer.appending("\(key)"), entry: value)
            return nil
        }
        return value
    }

    private mutating func text(_ object: Int, _ key: StaticString, at pointer: JSONPointer, atMost limit: Int = ReportLimits.maxText) -> String? {
        guard let value = member(object, key, at: pointer, .string, "a string") else { return nil }
        guard document.count(value) <= limit else {
            problem(
                "expected a text of at most \(InputFile.describe(bytes: limit)) (verify writes none longer), found \(ResponseChecker.grouped(document.count(value))) bytes",
                at: pointer.appending("\(key)"), entry: value)
            return nil
        }
        return shared(document.string(value))
    }

    /// `text`, sharing the storage of the same text read before.
    private mutating func shared(_ text: String) -> String {
        guard text.utf8.count > 15 else { return text }
        return texts.insert(text).memberAfterInsert
    }

    private mutating func optionalText(_ object: Int, _ key: StaticString, at pointer: JSONPointer, atMost limit: Int = ReportLimits.maxText) -> String? {
        document.member(key, of: object) == nil ? nil : text(object, key, at: pointer, atMost: limit)
    }

    /// A text verify clips: one longer than ``ReportLimits/maxClipped`` characters is clipped
    /// here, as verify would have, without reading the rest of it.
    private mutating func clippedText(_ object: Int, _ key: StaticString, at pointer: JSONPointer) -> String? {
        guard let value = member(object, key, at: pointer, .string, "a string", optional: true) else { return nil }
        let limit = ReportLimits.maxClipped
        guard document.count(value) > limit else { return shared(document.string(value)) }
        let entry = document.tape.entries[value]
        let start = Int(entry.payload)
        // Four bytes hold any character's first scalar: enough to count `limit` characters.
        let head = String(decoding: document.tape.bytes[start..<start + min(Int(entry.count), 4 * limit + 4)], as: UTF8.self)
        return head.count > limit ? ResponseChecker.clip(head, to: limit) : head
    }

    private mutating func int(_ object: Int, _ key: StaticString, at pointer: JSONPointer, in range: ClosedRange<Int>, what: String) -> Int? {
        guard let value = document.member(key, of: object) else {
            missing("\(key)", at: pointer, entry: object)
            return nil
        }
        guard document.kind(value) == .number, let number = document.number(value).intValue, range.contains(number) else {
            problem(
                "expected a whole number from \(ResponseChecker.grouped(range.lowerBound)) to \(ResponseChecker.grouped(range.upperBound)) (\(what)), found \(document.describe(value))",
                at: pointer.appending("\(key)"), entry: value)
            return nil
        }
        return number
    }

    private mutating func milliseconds(_ object: Int, _ key: StaticString, at pointer: JSONPointer) -> Duration? {
        int(object, key, at: pointer, in: 0...ReportLimits.maxMilliseconds, what: "milliseconds, at most a billion seconds").map { .milliseconds($0) }
    }

    /// A timing: zero, with a problem recorded, when it is not one.
    private mutating func timing(_ object: Int, _ key: StaticString, at pointer: JSONPointer) -> Duration {
        milliseconds(object, key, at: pointer) ?? .zero
    }

    /// The array at `key`, refused whole when it has more than `limit` elements: nothing is made
    /// of any of them.
    private mutating func array(_ object: Int, _ key: StaticString, at pointer: JSONPointer, atMost limit: Int, what: String) -> Int? {
        guard let value = member(object, key, at: pointer, .array, "an array") else { return nil }
        guard document.count(value) <= limit else {
            problem(
                "expected at most \(ResponseChecker.grouped(limit)) \(what), found \(ResponseChecker.grouped(document.count(value)))",
                at: pointer.appending("\(key)"), entry: value)
            return nil
        }
        return value
    }

    private mutating func missing(_ key: String, at pointer: JSONPointer, entry: Int) {
        problem("missing '\(key)'", at: pointer, entry: entry)
    }

    private mutating func problem(_ message: String, at pointer: JSONPointer, entry: Int) {
        document.problem(message, at: pointer, entry: entry)
    }
}
