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

    func regex(_ pattern: String) -> ECMARegex? {
        patterns[pattern] ?? (try? ECMARegex(pattern))
    }

    /// - Parameter headerPatterns: the compiled pattern of each of `expected`'s header checks, by
    ///   index, where the plan has one (``PlannedCase/headerPatterns``); others are looked up by
    ///   their text, or made from their placeholders' values.
    /// - Parameter streaming: `schema`'s verdict taken while the body is parsed, where it has one:
    ///   a body it accepts is read once; any other is read as before, which says what is wrong.
    func check(
        _ response: HTTPResponse, against expected: ResponseExpectation, schema: JSONSchema?, streaming: StreamingValidator? = nil, bindings: Bindings,
        headerPatterns: [HeaderPattern?] = []
    ) -> [Finding] {
        var findings: [Finding] = []
        // The body the case describes is that of a status it accepts. Another status's body
        // (a 401's error, a 404 page) checked against it gives only noise: a `required` finding per
        // property of the wrong document. So the status finding shows the body instead, and the
        // body expectation is left out (``bodyIsDescribed(for:in:)``).
        let bodyIsDescribed = bodyIsDescribed(for: response.status, in: expected)
        if !expected.status.accepts(response.status) {
            let unchecked = !bodyIsDescribed && expected.body != .unchecked
                ? " (the body was not checked: the contract describes the body of a \(expected.status) response)" : ""
            findings.append(Finding(
                kind: .status, rule: "status", message: "expected status \(expected.status), found \(response.status)\(unchecked)",
                excerpt: response.body.isEmpty ? nil : BodyExcerpt.head(response.body, secrets: secrets)))
        }
        // By index: each expectation read in place, not copied out of the array for the loop.
        for index in expected.headers.indices {
            let compiled = index < headerPatterns.count ? headerPatterns[index] : nil
            if let finding = check(expected.headers[index], in: response, bindings: bindings, compiled: compiled) { findings.append(finding) }
        }
        // Asked here first: passing `clip` copies the whole checker into its closure.
        if response.headers.hasRepeatedNames {
            findings += RepeatedHeaders.findings(in: response.headers, expected: expected.headers, clip: clip)
        }
        let declared = BodyDeclaration(contentType: response.value(of: "Content-Type"))
        // Switched on in place, not on a copy made optional: a copy of an expectation costs a
        // retain per part, for every response.
        guard bodyIsDescribed else {
            findings += checkDeclared(response.body, declared)
            return findings
        }
        switch expected.body.base {
        case .unchecked:
            findings += checkDeclared(response.body, declared)
        case .empty:
            if !response.body.isEmpty {
                findings.append(Finding(
                    kind: .body, rule: "body.empty", message: "expected an empty body, found \(response.body.count) bytes", excerpt: BodyExcerpt.head(response.body, secrets: secrets)))
            }
        case .text(let matcher):
            findings += checkText(response.body, matcher.conditions, declared)
        case .binary(let expectation):
            findings += checkDeclared(response.body, declared)
            findings += checkBinary(response.body, expectation)
        case .json:
            findings += checkJSON(response, declared, schema: schema, streaming: streaming)
        }
        // Values are held to the flow where the body is the one the case describes; a body that is
        // not JSON was said above.
        if !expected.values.isEmpty {
            do {
                let document = try JSONParser(tracksLocations: false).parse(response.body).value
                findings += ValueChecker(bindings: bindings, checker: self).check(expected.values, in: document)
            } catch {
                // Without a schema nothing else asks for JSON: the values would go unchecked and
                // the case pass on an HTML error page.
                if expected.body.kind != .json { findings.append(valuesNotJSON(response.body)) }
            }
        }
        return findings
    }

    /// Whether the body of a response with `status` is held to the case's body expectation: when
    /// its status accepts `status`; else the body is not checked. The seam for a contract that
    /// describes the body of several statuses: look the status up there.
    private func bodyIsDescribed(for status: Int, in expected: ResponseExpectation) -> Bool {
        expected.status.accepts(status)
    }

    /// - Parameter compiled: the pattern of a `pattern` matcher without placeholders, compiled by
    ///   the plan; nil to make it here.
    private func check(_ expectation: HeaderExpectation, in response: HTTPResponse, bindings: Bindings, compiled: HeaderPattern? = nil) -> Finding? {
        let name = expectation.name
        // The passing path reads the fields' bytes in place; the values are made as strings only
        // for a finding, or for a matcher that compares strings.
        var values: [String] { response.values(of: name) }
        // Only a finding names the field: a passing check lowercases nothing.
        var field: String { name.lowercased() }
        switch expectation.matcher {
        case .present:
            return response.headers.contains(name: name) ? nil : Finding(kind: .header, rule: "header.present", subject: field, message: "expected header '\(name)', found none")
        case .absent:
            return !response.headers.contains(name: name) ? nil : Finding(kind: .header, rule: "header.absent", subject: field, message: "expected no header '\(name)', found '\(clip(values[0]))'")
        case .equals(let template):
            let wanted = bindings.render(template)
            let values = values
            guard !values.contains(wanted) else { return nil }
            let shown = bindings.display(template)
            return Finding(kind: .header, rule: "header.equals", subject: field, message: "expected header '\(name)' to be '\(shown)', found \(describe(values))")
        case .differs(let template):
            // No value is no other value: an `ETag` dropped after an update is not a new one.
            let values = values
            guard !values.isEmpty else {
                return Finding(
                    kind: .header, rule: "header.differs", subject: field,
                    message: "expected header '\(name)' to differ from \(bindings.describe(template)), found none")
            }
            let unwanted = bindings.render(template)
            guard values.contains(unwanted) else { return nil }
            return Finding(
                kind: .header, rule: "header.differs", subject: field,
                message: "expected header '\(name)' to differ from \(bindings.describe(template)), found the same, '\(clip(unwanted))'")
        case .pattern(let written):
            // The common case: a pattern without placeholders, compiled once for the run.
            if let compiled {
                guard !response.headers.containsValue(of: name, where: compiled.matches) else { return nil }
                return Finding(kind: .header, rule: "header.pattern", subject: field, message: "expected header '\(name)' to match '\(written)', found \(describe(values))")
            }
            // Messages show the pattern as written, with the captures it read: the pattern made
            // holds each value escaped (`tok\.en`), a form of a secret that no mask recognizes.
            let pattern = bindings.pattern(written)
            let inserted = bindings.patternValues(written)
            guard let regex = regex(pattern) else {
                return Finding(
                    kind: .header, rule: "header.pattern-invalid", subject: field,
                    message: "the pattern '\(written)' for header '\(name)' is not a valid regular expression\(inserted.isEmpty ? "" : " with its values in it\(inserted)")")
            }
            let values = values
            guard !values.contains(where: regex.matches) else { return nil }
            return Finding(kind: .header, rule: "header.pattern", subject: field, message: "expected header '\(name)' to match '\(written)'\(inserted), found \(describe(values))")
        }
    }

    /// A body whose `values` cannot be read, said once: the values are not checked one by one.
    private func valuesNotJSON(_ body: [UInt8]) -> Finding {
        let what: String
        if BodyEncoding.firstInvalidUTF8(body) != nil {
            what = "bytes that are not UTF-8"
        } else if body.isEmpty {
            what = "an empty body"
        } else {
            do {
                _ = try JSONParser().parse(body)
                what = "a body that is not JSON"
            } catch {
                what = "invalid JSON at line \(error.location.line), column \(error.location.column): \(error.message)"
            }
        }
        return Finding(
            kind: .body, rule: "value.json", message: "expected a JSON body to hold 'values' to, found \(what)",
            excerpt: body.isEmpty ? nil : BodyExcerpt.head(body, secrets: secrets))
    }

    /// A body the case does not check (or not for this status) is still held to what its
    /// `Content-Type` declares: UTF-8 when it says `charset=utf-8` or is JSON, and a JSON body
    /// neither starts with a byte order mark nor repeats a member name. Whether it is valid JSON
    /// at all is the contract's to ask.
    func checkDeclared(_ body: [UInt8], _ declared: BodyDeclaration) -> [Finding] {
        guard !body.isEmpty, declared.isJSON || declared.declaresUTF8 else { return [] }
        if let offset = BodyEncoding.firstInvalidUTF8(body) {
            return [notUTF8(body, at: offset, because: declaredReason(declared))]
        }
        guard declared.isJSON else { return [] }
        var findings: [Finding] = []
        if let finding = byteOrderMark(body) { findings.append(finding) }
        if let tape = try? JSONParser().parseTape(body) { findings += duplicateMembers(tape, body) }
        return findings
    }

    private func checkJSON(_ response: HTTPResponse, _ declared: BodyDeclaration, schema: JSONSchema?, streaming: StreamingValidator?) -> [Finding] {
        var findings: [Finding] = []
        if !declared.isJSON {
            findings.append(Finding(
                kind: .contentType, rule: "content-type.json",
                message: "expected a JSON content type (application/json or */*+json), found \(declared.contentType.map { "'\(clip($0))'" } ?? "none")"))
        }
        if let finding = byteOrderMark(response.body) { findings.append(finding) }
        // The common case, a valid body with no repeated member name, read once.
        if let streaming, streaming.accepts(response.body) { return findings }
        // Else, and for schemas that do not stream: a body needs neither source locations nor
        // error paths to be found valid: parse plainly and ask for the verdict; only a failing
        // body is parsed again to locate its errors.
        let tape = try? JSONParser().parseTape(response.body)
        if let tape { findings += duplicateMembers(tape, response.body) }
        if let schema, let tape, schema.isValid(tape) {
            return findings
        }
        let document: JSONDocument
        do {
            document = try JSONParser().parse(response.body)
        } catch {
            // Bytes that are not UTF-8 are what is wrong, wherever the parser stopped.
            if let offset = BodyEncoding.firstInvalidUTF8(response.body) {
                findings.append(notUTF8(response.body, at: offset, because: declaredReason(declared) ?? "the contract expects a JSON body"))
                return findings
            }
            let offset = error.location.offset
            findings.append(Finding(
                kind: .body, rule: "body.json", message: "expected a JSON body, found invalid JSON at line \(error.location.line), column \(error.location.column): \(error.message)",
                excerpt: response.body.isEmpty ? nil : BodyExcerpt.around(response.body, offset: offset, secrets: secrets)))
            return findings
        }
        guard let schema else { return findings }
        let result = schema.validate(tape ?? JSONTape(document.value), keepingAtMost: Self.maxBodyFindings)
        for error in result.errors {
            let pointer = error.instanceLocation
            let offset = document.nearestOffset(of: pointer)
            let clipped = clippedPointer(pointer)
            let shownPointer = pointer.isRoot ? "/" : clipped
            findings.append(Finding(
                kind: .body, rule: "body.schema", message: "\(shownPointer): \(error.message)", pointer: clipped, keyword: error.keyword,
                schemaLocation: catalog.display(error.absoluteKeywordLocation), schemaExcerpt: schemaExcerpt(error.absoluteKeywordLocation, keyword: error.keyword),
                excerpt: BodyExcerpt.around(response.body, offset: offset, secrets: secrets)))
        }
        if result.omitted > 0 {
            findings.append(Finding(
                kind: .body, rule: "body.schema-more", message: "and \(Self.grouped(result.omitted)) more schema errors in this body, not listed (the first \(result.errors.count) are)"))
        }
        return findings
    }

    /// The schema that failed, as written (keys in their order), on one line. A schema may hold
    /// a whole API's worth of properties: a long one is cut down to its title, its type and the
    /// keyword that failed (`{"title":"Product","type":"object","required":["id","name"], …}`),
    /// and then clipped.
    private func schemaExcerpt(_ absoluteLocation: String, keyword: String) -> String? {
        guard let schema = catalog.schema(holdingKeywordAt: absoluteLocation), let object = schema.objectValue else { return nil }
        let whole = Self.schemaWriter.string(schema)
        guard whole.unicodeScalars.count > Self.maxSchemaExcerpt else { return whole }
        let kept = object.members.filter { $0.key == "title" || $0.key == "type" || $0.key == keyword }
        let cut = Self.schemaWriter.string(.object(JSONObject(kept)))
        return MessageText.clipped(String(cut.dropLast()) + ", …}", to: Self.maxSchemaExcerpt)
    }

    private static let schemaWriter = CanonicalJSONWriter(style: .compact, sortsKeys: false)
    static let maxSchemaExcerpt = 400

    /// Member names are the server's to choose: a megabyte key must not make a megabyte finding.
    private func clippedPointer(_ pointer: JSONPointer) -> String {
        JSONPointer(tokens: pointer.tokens.map { MessageText.clipped($0, to: Self.maxPointerToken) }).description
    }

    /// Why the body must be UTF-8, from its `Content-Type`; nil when that says nothing.
    func declaredReason(_ declared: BodyDeclaration) -> String? {
        guard let contentType = declared.contentType else { return nil }
        if declared.declaresUTF8 { return "the Content-Type '\(clip(contentType))' declares UTF-8" }
        if declared.isJSON { return "the Content-Type '\(clip(contentType))' is JSON, which is UTF-8 (RFC 8259 §8.1)" }
        return nil
    }

    func notUTF8(_ body: [UInt8], at offset: Int, because reason: String?) -> Finding {
        let why = reason.map { " (\($0))" } ?? ""
        return Finding(
            kind: .body, rule: "body.encoding",
            message: "expected UTF-8 text\(why), found \(BodyEncoding.describeBytes(at: offset, in: body)), which is not UTF-8, "
                + "at \(BodyEncoding.position(of: offset, in: body))",
            excerpt: BodyExcerpt.around(body, offset: offset, secrets: secrets))
    }

    /// RFC 8259 §8.1: senders MUST NOT add a byte order mark to JSON; many decoders refuse one
    /// (JavaScript's `JSON.parse`, Go's `encoding/json`). This parser skips it, so the schema check
    /// still runs; contract files on disk may keep one (editors write them).
    func byteOrderMark(_ body: [UInt8]) -> Finding? {
        guard BodyEncoding.startsWithByteOrderMark(body) else { return nil }
        return Finding(
            kind: .body, rule: "body.byte-order-mark",
            message: "expected a JSON body without a byte order mark (RFC 8259 §8.1), found the bytes 0xEF 0xBB 0xBF (U+FEFF) "
                + "before the first value; many JSON parsers reject it",
            excerpt: BodyExcerpt.head(body, secrets: secrets))
    }

    /// One finding per member name repeated in an object, with the places and values of each
    /// occurrence, then one counting names not listed.
    func duplicateMembers(_ tape: JSONTape, _ body: [UInt8]) -> [Finding] {
        let found = DuplicateMembers.find(in: tape)
        guard !found.repeats.isEmpty else { return [] }
        let ordinals = Set(found.repeats.flatMap { $0.occurrences.map(\.keyOrdinal) })
        let offsets = DuplicateMembers.keyOffsets(in: body, ordinals: ordinals)
        let source = SourceText(body, indexLines: true)
        var findings: [Finding] = []
        for repeated in found.repeats {
            let pointer = clippedPointer(repeated.pointer)
            let places = repeated.occurrences.map { occurrence -> String in
                let value = describeValue(tape, at: occurrence.value)
                guard let offset = offsets[occurrence.keyOrdinal] else { return value }
                let location = source.location(ofOffset: offset)
                return "\(value) at line \(location.line), column \(location.column)"
            }
            let count = repeated.occurrences.count
            let times = count == 2 ? "twice" : "\(count) times"
            let listed = places.dropLast().joined(separator: ", ") + ", then " + places[places.count - 1]
            let excerptOffset = offsets[repeated.occurrences[1].keyOrdinal] ?? 0
            findings.append(Finding(
                kind: .body, rule: "body.duplicate-member", subject: MessageText.clipped(repeated.name, to: Self.maxPointerToken),
                message: "\(pointer): expected each member name once per object (RFC 8259 §4, I-JSON RFC 7493 §2.3), "
                    + "found '\(clip(repeated.name, to: 40))' \(times): \(listed); parsers disagree on which value a client reads",
                pointer: pointer, excerpt: BodyExcerpt.around(body, offset: excerptOffset, secrets: secrets)))
        }
        if found.omitted > 0 {
            findings.append(Finding(
                kind: .body, rule: "body.duplicate-member-more", message: "and \(Self.grouped(found.omitted)) more repeated member names in this body, not listed (the first \(found.repeats.count) are)"))
        }
        return findings
    }

    /// A value as a message shows it: scalars and small containers as JSON, cut; others by size.
    private func describeValue(_ tape: JSONTape, at index: Int) -> String {
        let entry = tape.entries[index]
        switch entry.kind {
        case .object where Int(entry.end) - index > 16: return "an object of \(entry.count) member\(entry.count == 1 ? "" : "s")"
        case .array where Int(entry.end) - index > 16: return "an array of \(entry.count) item\(entry.count == 1 ? "" : "s")"
        case .string where entry.count > 4 * 40:
            // Not rebuilt whole: a megabyte string must not make a megabyte message.
            let start = Int(entry.payload)
            var prefix = Array(tape.bytes[start..<start + 4 * 40])
            while let last = prefix.last, last & 0xC0 == 0x80 { prefix.removeLast() }
            if let last = prefix.last, last >= 0xC0 { prefix.removeLast() }
            return clip(CanonicalJSONWriter(style: .compact).string(.string(String(decoding: prefix, as: UTF8.self))), to: 40)
        default:
            return clip(CanonicalJSONWriter(style: .compact).string(tape.value(at: index)), to: 40)
        }
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
    func clip(_ text: String) -> String {
        secrets.clip(text, to: 80)
    }

    func clip(_ text: String, to length: Int) -> String {
        secrets.clip(text, to: length)
    }

    static func clip(_ text: String, to length: Int = 80) -> String {
        text.count > length ? String(text.prefix(length)) + Secrets.cutMark : text
    }
}
