import ContractHTTP
import ContractJSON
import ContractModel
import ContractSchema

/// The check stage: compares one response with what its case expects. Pure: no I/O, so every
/// rule is testable with a response built by hand.
struct ResponseChecker: Sendable {
    let catalog: SchemaCatalog
    /// Patterns compiled by the plan; any other is compiled when met.
    var patterns: [String: ECMARegex] = [:]
    /// Masked before any value from the response is clipped into a message or an excerpt.
    var secrets = Secrets([])
    /// Schema errors kept per body; the rest are counted in one last finding. Enough to see every
    /// kind of problem, and a body of a million wrong items costs no more to report than this.
    static let maxBodyFindings = 100
    /// Characters of one pointer token a finding shows; longer member names end in `…`.
    static let maxPointerToken = 100

    private func regex(_ pattern: String) -> ECMARegex? {
        patterns[pattern] ?? (try? ECMARegex(pattern))
    }

    func check(_ response: HTTPResponse, against expected: ResponseExpectation, schema: JSONSchema?, bindings: Bindings) -> [Finding] {
        var findings: [Finding] = []
        if !expected.status.accepts(response.status) {
            findings.append(Finding(kind: .status, message: "expected status \(expected.status), found \(response.status)"))
        }
        for header in expected.headers {
            if let finding = check(header, in: response, bindings: bindings) { findings.append(finding) }
        }
        switch expected.body {
        case .unchecked:
            break
        case .empty:
            if !response.body.isEmpty {
                findings.append(Finding(
                    kind: .body, message: "expected an empty body, found \(response.body.count) bytes", excerpt: BodyExcerpt.head(response.body, secrets: secrets)))
            }
        case .text(let matcher):
            findings += checkText(response.body, matcher)
        case .json:
            findings += checkJSON(response, schema: schema)
        }
        return findings
    }

    private func check(_ expectation: HeaderExpectation, in response: HTTPResponse, bindings: Bindings) -> Finding? {
        let values = response.values(of: expectation.name)
        let name = expectation.name
        switch expectation.matcher {
        case .present:
            return values.isEmpty ? Finding(kind: .header, message: "expected header '\(name)', found none") : nil
        case .absent:
            return values.isEmpty ? nil : Finding(kind: .header, message: "expected no header '\(name)', found '\(clip(values[0]))'")
        case .equals(let template):
            let wanted = bindings.render(template)
            guard !values.contains(wanted) else { return nil }
            let shown = bindings.display(template)
            return Finding(kind: .header, message: "expected header '\(name)' to be '\(shown)', found \(describe(values))")
        case .pattern(let pattern):
            guard let regex = regex(pattern) else {
                return Finding(kind: .header, message: "the pattern '\(pattern)' for header '\(name)' is not a valid regular expression")
            }
            guard !values.contains(where: regex.matches) else { return nil }
            return Finding(kind: .header, message: "expected header '\(name)' to match '\(pattern)', found \(describe(values))")
        }
    }

    private func checkText(_ body: [UInt8], _ matcher: TextMatcher) -> [Finding] {
        let text = String(decoding: body, as: UTF8.self)
        guard Array(text.utf8) == body else {
            return [Finding(kind: .body, message: "expected UTF-8 text, found bytes that are not UTF-8", excerpt: BodyExcerpt.head(body, secrets: secrets))]
        }
        switch matcher {
        case .equals(let wanted):
            guard text != wanted else { return [] }
            return [Finding(kind: .body, message: "expected the body '\(clip(wanted))', found '\(clip(text))'")]
        case .pattern(let pattern):
            guard let regex = regex(pattern) else {
                return [Finding(kind: .body, message: "the body pattern '\(pattern)' is not a valid regular expression")]
            }
            guard !regex.matches(text) else { return [] }
            return [Finding(kind: .body, message: "expected a body matching '\(pattern)', found '\(clip(text))'")]
        }
    }

    private func checkJSON(_ response: HTTPResponse, schema: JSONSchema?) -> [Finding] {
        var findings: [Finding] = []
        let contentType = response.value(of: "Content-Type")
        if !MediaType.isJSON(contentType) {
            findings.append(Finding(
                kind: .contentType, message: "expected a JSON content type (application/json or */*+json), found \(contentType.map { "'\($0)'" } ?? "none")"))
        }
        // The common case, a valid body, needs neither source locations nor error paths: parse
        // plainly and ask for the verdict; only a failing body is parsed again to locate its errors.
        let tape = schema == nil ? nil : try? JSONParser().parseTape(response.body)
        if let schema, let tape, schema.isValid(tape) {
            return findings
        }
        let document: JSONDocument
        do {
            document = try JSONParser().parse(response.body)
        } catch {
            let offset = error.location.offset
            findings.append(Finding(
                kind: .body, message: "expected a JSON body, found invalid JSON at line \(error.location.line), column \(error.location.column): \(error.message)",
                excerpt: response.body.isEmpty ? nil : BodyExcerpt.around(response.body, offset: offset, secrets: secrets)))
            return findings
        }
        guard let schema else { return findings }
        let result = schema.validate(tape ?? JSONTape(document.value), keepingAtMost: Self.maxBodyFindings)
        for error in result.errors {
            let pointer = error.instanceLocation
            let offset = document.nearestOffset(of: pointer)
            // Member names are the server's to choose: a megabyte key must not make a megabyte finding.
            let clipped = JSONPointer(tokens: pointer.tokens.map { MessageText.clipped($0, to: Self.maxPointerToken) }).description
            let shownPointer = pointer.isRoot ? "/" : clipped
            findings.append(Finding(
                kind: .body, message: "\(shownPointer): \(error.message)", pointer: clipped, keyword: error.keyword,
                schemaLocation: catalog.display(error.absoluteKeywordLocation), excerpt: BodyExcerpt.around(response.body, offset: offset, secrets: secrets)))
        }
        if result.omitted > 0 {
            findings.append(Finding(
                kind: .body, message: "and \(Self.grouped(result.omitted)) more schema errors in this body, not listed (the first \(result.errors.count) are)"))
        }
        return findings
    }

    /// `99,990`: counts people read at a glance.
    static func grouped(_ number: Int) -> String {
        var digits = Array(String(number))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    private func describe(_ values: [String]) -> String {
        values.isEmpty ? "none" : values.map { "'\(clip($0))'" }.joined(separator: ", ")
    }

    /// A value from the response, masked and then clipped.
    private func clip(_ text: String) -> String {
        secrets.clip(text, to: 80)
    }

    static func clip(_ text: String, to length: Int = 80) -> String {
        text.count > length ? String(text.prefix(length)) + Secrets.cutMark : text
    }
}
