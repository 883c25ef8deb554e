import ContractJSON
import ContractSchema

/// The keys of the response's body forms and of the header matcher's options. `FormatKeys.response`
/// (DocumentDecoder+Contract.swift) predates `binary`, so the response's keys are completed here.
extension FormatKeys {
    static let responseKeys = response + ["binary"].filter { !response.contains($0) }
    /// Said beside a header matcher's one check.
    static let headerMatcherOptions = ["repeats"]
    /// A `text` object: conditions that all hold.
    static let textConditions = ["equals", "pattern", "contains", "length", "minLength", "maxLength", "sha256", "charset"]
    static let binaryBody = ["length", "minLength", "maxLength", "sha256", "base64"]
    /// The body forms, in the order a clash between two of them is reported.
    static let bodyKinds = ["schema", "text", "empty", "binary"]
}

extension DocumentDecoder {
    mutating func decodeResponse(_ field: Field, what: @autoclosure () -> String) -> ResponseExpectation? {
        guard let fields = object(field, "the response of \(what())", allowed: FormatKeys.responseKeys, required: ["status"]) else { return nil }
        let status = fields["status"].flatMap { decodeStatus($0) }
        let headers = fields["headers"].map { decodeResponseHeaders($0) } ?? []
        let body = decodeBodyExpectation(fields)
        let values = fields["values"].map { decodeValueExpectations($0) } ?? []
        if let valuesField = fields["values"], let kind = ["text", "empty", "binary"].first(where: { fields[$0] != nil }) {
            error("'values' reads a JSON body, and this response's body is '\(kind)'", at: valuesField.pointer, atKey: true)
        }
        guard let status else { return nil }
        return ResponseExpectation(status: status, headers: headers, body: body ?? .unchecked, values: values)
    }

    /// `200`, `"2XX"` or a list of them.
    mutating func decodeStatus(_ field: Field) -> StatusExpectation? {
        if field.value.arrayValue != nil {
            guard !field.elements.isEmpty else {
                error("'status' must list at least one status code or class", at: field.pointer)
                return nil
            }
            var alternatives: [StatusExpectation.Alternative] = []
            var failed = false
            for element in field.elements {
                guard let alternative = decodeStatusAlternative(element) else {
                    failed = true
                    continue
                }
                if alternatives.contains(alternative) {
                    error("'status' lists \(describe(element.value)) twice", at: element.pointer)
                } else {
                    alternatives.append(alternative)
                }
            }
            return failed ? nil : StatusExpectation(alternatives)
        }
        return decodeStatusAlternative(field).map { alternative in
            // One status is what nearly every case says: each one's expectation is shared.
            if let known = singleStatuses[alternative] { return known }
            let status = StatusExpectation([alternative])
            singleStatuses[alternative] = status
            return status
        }
    }

    private mutating func decodeStatusAlternative(_ field: Field) -> StatusExpectation.Alternative? {
        let expected = "'status' must be an integer from 100 to 599, a class like '2XX' or a list of them"
        switch field.value {
        case .number(let number):
            if let code = number.intValue, number.isInteger, (100...599).contains(code) { return .code(code) }
        case .string(let text):
            let scalars = Array(text.unicodeScalars)
            if scalars.count == 3, ("1"..."5").contains(scalars[0]) {
                if scalars[1] == "X", scalars[2] == "X", let digit = Int(String(scalars[0])) { return .class(digit) }
                if scalars[1...].allSatisfy({ $0 == "x" || $0 == "X" }) {
                    error("\(expected), found \(describe(field.value)), did you mean '\(text.uppercased())'?", at: field.pointer)
                    return nil
                }
                if let code = Int(text), (100...599).contains(code) {
                    error("\(expected), found the string \(describe(field.value)), did you mean \(code)?", at: field.pointer)
                    return nil
                }
            }
        default:
            break
        }
        error("\(expected), found \(describe(field.value))", at: field.pointer)
        return nil
    }

    /// Response headers, decoded once for the cases that write the same ones: cases repeat their
    /// matchers, and each held its own copy (``RecentDecodings``).
    mutating func decodeResponseHeaders(_ field: Field) -> [HeaderExpectation] {
        reusing(\.recentHeaders, field) { $0.decodeHeaderExpectations($1) }
    }

    /// Response headers: an exact value, or an object with one of `equals`, `pattern`, `present`.
    mutating func decodeHeaderExpectations(_ field: Field) -> [HeaderExpectation] {
        guard field.value.objectValue != nil else {
            error("'headers' must be an object of header names to matchers, found \(describe(field.value))", at: field.pointer)
            return []
        }
        var expectations: [HeaderExpectation] = []
        for (name, member) in uniqueHeaderNames(field) {
            if member.value.stringValue != nil {
                if headerValueIsClean(member, name), let value = template(member, name) {
                    expectations.append(HeaderExpectation(name: name, matcher: .equals(value)))
                }
                continue
            }
            guard let matcherFields = matcherFields(member, "the matcher of header '\(name)'", allowed: FormatKeys.headerMatcher, options: FormatKeys.headerMatcherOptions) else {
                continue
            }
            var occurrences = HeaderExpectation.Occurrences.unstated
            if let repeats = matcherFields["repeats"] {
                guard let flag = bool(repeats, "repeats") else { continue }
                if matcherFields["present"]?.value == .bool(false) {
                    error("'repeats' cannot be given with 'present': false, which says header '\(name)' must not come at all", at: repeats.pointer, atKey: true)
                    continue
                }
                occurrences = flag ? .repeats : .once
            }
            if let equals = matcherFields["equals"], headerValueIsClean(equals, name), let value = template(equals, "equals") {
                expectations.append(HeaderExpectation(name: name, matcher: .equals(value), occurrences: occurrences))
            } else if let differs = matcherFields["differs"], headerValueIsClean(differs, name), let value = template(differs, "differs") {
                expectations.append(HeaderExpectation(name: name, matcher: .differs(value), occurrences: occurrences))
            } else if let pattern = matcherFields["pattern"], let text = templatedExpression(pattern)?.description {
                expectations.append(HeaderExpectation(name: name, matcher: .pattern(text), occurrences: occurrences))
            } else if let present = matcherFields["present"], let flag = bool(present, "present") {
                expectations.append(HeaderExpectation(name: name, matcher: flag ? .present : .absent, occurrences: occurrences))
            }
        }
        return expectations
    }

    /// The members of a matcher object, which must hold exactly one of `allowed`, and may hold `options` beside it.
    mutating func matcherFields(_ field: Field, _ what: @autoclosure () -> String, allowed: [String], options: [String] = []) -> KnownFields? {
        guard field.value.objectValue != nil else {
            let kinds = allowed.map { "'\($0)'" }.joined(separator: ", ")
            error("\(what()) must be a string or an object with one of \(kinds), found \(describe(field.value))", at: field.pointer)
            return nil
        }
        guard let fields = object(field, what(), allowed: allowed + options) else { return nil }
        let given = allowed.filter { fields[$0] != nil }
        guard given.count == 1 else {
            let kinds = allowed.map { "'\($0)'" }.joined(separator: ", ")
            let found = given.isEmpty ? "none" : given.map { "'\($0)'" }.joined(separator: " and ")
            // A misspelt key was reported already; "found none" would say the same thing twice.
            let misspelt = (field.value.objectValue?.count ?? 0) > fields.count
            if given.count > 1 || !misspelt {
                let option = options.first { fields[$0] != nil }
                let note = given.isEmpty ? option.map { " ('\($0)' is said beside one of them, such as 'present': true)" } ?? "" : ""
                error("\(what()) needs exactly one of \(kinds), found \(found)\(note)", at: field.pointer)
            }
            return nil
        }
        return fields
    }

    /// A `pattern` string that compiles as an ECMA-262 regular expression, as `contract verify` will use it.
    mutating func regularExpression(_ field: Field) -> String? {
        guard let text = string(field, "pattern") else { return nil }
        if validPatterns.contains(text) { return text }
        do {
            _ = try ECMARegex(text)
            validPatterns.insert(text)
            return text
        } catch {
            self.error("'pattern' is not a valid ECMA-262 regular expression: \(error)", at: field.pointer)
            return nil
        }
    }

    /// At most one of `schema`, `text`, `empty`, `binary`; `example` only beside `schema`.
    mutating func decodeBodyExpectation(_ fields: KnownFields) -> BodyExpectation? {
        let kinds = FormatKeys.bodyKinds.filter { fields[$0] != nil }
        if kinds.count > 1, let second = fields[kinds[1]] {
            // The message before `binary` existed is kept word for word for the clashes it covers.
            let forms = kinds.prefix(2).contains("binary")
                ? "a response body is JSON ('schema'), 'text', bytes ('binary') or 'empty'" : "a response body is JSON ('schema'), 'text' or 'empty'"
            error("'\(kinds[0])' and '\(kinds[1])' cannot both be given: \(forms)", at: second.pointer, atKey: true)
            return nil
        }
        if let example = fields["example"], fields["schema"] == nil {
            error("'example' needs a 'schema' beside it to be checked against", at: example.pointer, atKey: true)
        }
        if let schemaField = fields["schema"] {
            guard let schema = decodeSchema(schemaField) else { return nil }
            return .json(schema: schema, example: fields["example"]?.value)
        }
        if let textField = fields["text"] {
            if let text = textField.value.stringValue { return .text(.equals(text)) }
            return decodeTextConditions(textField).map { .text($0) }
        }
        if let emptyField = fields["empty"] {
            guard let flag = bool(emptyField, "empty") else { return nil }
            guard flag else {
                error("'empty' can only be true; leave it out to accept any body", at: emptyField.pointer)
                return nil
            }
            return .empty
        }
        if let binaryField = fields["binary"] {
            return decodeBinary(binaryField).map { .binary($0) }
        }
        return .unchecked
    }

    // MARK: Text

    /// A `text` object: every condition given must hold. Only `equals` or only `pattern` is the
    /// form the format always had. Contradictions lint can see are errors: conditions that
    /// `equals` fails, characters the charset cannot write, a substring longer than the body may be.
    private mutating func decodeTextConditions(_ field: Field) -> TextMatcher? {
        let keys = FormatKeys.textConditions
        let listed = Self.listed(keys)
        guard field.value.objectValue != nil else {
            error("'text' must be a string (the exact body) or an object of conditions (\(listed)), found \(describe(field.value))", at: field.pointer)
            return nil
        }
        guard let fields = object(field, "'text'", allowed: keys) else { return nil }
        guard !fields.isEmpty else {
            // Misspelt keys were reported already.
            if field.value.objectValue?.isEmpty == true {
                error("'text' needs at least one of \(listed); leave 'text' out to accept any body", at: field.pointer)
            }
            return nil
        }
        var failed = false
        func given<T>(_ key: String, _ value: T?) -> T? {
            if fields[key] != nil && value == nil { failed = true }
            return value
        }
        let equals = given("equals", string(fields["equals"], "equals"))
        let pattern = given("pattern", fields["pattern"].flatMap { regularExpression($0) })
        let contains = given("contains", fields["contains"].flatMap { decodeContains($0) })
        let length = decodeByteCount(fields)
        if length == nil { failed = true }
        let sha256 = given("sha256", fields["sha256"].flatMap { decodeSHA256($0) })
        let charset = given("charset", fields["charset"].flatMap { decodeCharset($0) })
        guard !failed, let length else { return nil }
        let conditions = TextConditions(equals: equals, pattern: pattern, contains: contains ?? [], length: length, sha256: sha256, charset: charset)
        guard textConditionsAgree(conditions, fields) else { return nil }
        if fields.count == 1, let equals { return .equals(equals) }
        if fields.count == 1, let pattern { return .pattern(pattern) }
        return .conditions(conditions)
    }

    /// Reports each contradiction between the conditions of a `text` object; true when there is none.
    private mutating func textConditionsAgree(_ conditions: TextConditions, _ fields: KnownFields) -> Bool {
        let before = diagnostics.count
        let charset = conditions.decodingCharset
        let inCharset = conditions.charset == nil ? "in UTF-8" : "in \(charset.displayName)"
        // Text the charset cannot write can never come in a body it decodes.
        let stated = "('charset' is '\(charset.rawValue)')"
        if let equals = conditions.equals, let field = fields["equals"], let scalar = charset.firstUnencodable(in: equals) {
            error("'equals' holds \(Self.character(scalar)), which cannot be encoded in \(charset.displayName) \(stated)", at: field.pointer)
        }
        for (index, wanted) in conditions.contains.enumerated() {
            guard let element = fields["contains"]?.elements[index] else { continue }
            if let scalar = charset.firstUnencodable(in: wanted) {
                let what = "'contains' has \(describe(.string(wanted))), whose \(Self.character(scalar))"
                error("\(what) cannot be encoded in \(charset.displayName) \(stated)", at: element.pointer)
            } else if let bytes = charset.encode(wanted), let maximum = conditions.length.maximum, bytes.count > maximum {
                let bound = conditions.length.exact != nil ? "'length'" : "'maxLength'"
                let what = "'contains' has \(describe(.string(wanted))) (\(ByteCount.bytes(bytes.count)) \(inCharset))"
                error("\(what), longer than \(bound) \(maximum)", at: element.pointer)
            }
        }
        guard diagnostics.count == before else { return false }
        // `equals` is the whole body: every other condition must hold for it.
        guard let equals = conditions.equals, let bytes = charset.encode(equals) else { return true }
        if let pattern = conditions.pattern, let field = fields["pattern"], let regex = try? ECMARegex(pattern), !regex.matches(equals) {
            error("'equals' does not match 'pattern' \(describe(.string(pattern))), so no body can pass both", at: field.pointer)
        }
        for (index, wanted) in conditions.contains.enumerated() {
            guard let element = fields["contains"]?.elements[index], let needle = charset.encode(wanted) else { continue }
            if ByteSearch.firstOffset(of: needle, in: bytes) == nil {
                error("'contains' has \(describe(.string(wanted))), which 'equals' does not contain", at: element.pointer)
            }
        }
        for key in ["length", "minLength", "maxLength"] {
            guard let field = fields[key], let bound = field.value.numberValue?.intValue else { continue }
            let fits = key == "length" ? bytes.count == bound : key == "minLength" ? bytes.count >= bound : bytes.count <= bound
            if !fits {
                error("'\(key)' is \(bound), but 'equals' is \(ByteCount.bytes(bytes.count)) \(inCharset)", at: field.pointer)
            }
        }
        if let sha256 = conditions.sha256, let field = fields["sha256"] {
            let digest = SHA256.hex(bytes)
            if digest != sha256 {
                error(
                    "'sha256' is \(Self.shortDigest(sha256, beside: digest)), but 'equals' has the SHA-256 \(Self.shortDigest(digest, beside: sha256)) "
                        + "(of its \(ByteCount.bytes(bytes.count)) \(inCharset))", at: field.pointer)
            }
        }
        return diagnostics.count == before
    }

    /// `contains`: a non-empty list of distinct, non-empty strings.
    private mutating func decodeContains(_ field: Field) -> [String]? {
        guard field.value.arrayValue != nil else {
            let hint = field.value.stringValue.map { ", write [\(describe(.string($0)))] for one substring" } ?? ""
            error("'contains' must be an array of strings, found \(describe(field.value))\(hint)", at: field.pointer)
            return nil
        }
        guard !field.elements.isEmpty else {
            error("'contains' must list at least one string", at: field.pointer)
            return nil
        }
        var result: [String] = []
        var failed = false
        for element in field.elements {
            guard let text = element.value.stringValue else {
                error("'contains' must hold only strings, found \(describe(element.value))", at: element.pointer)
                failed = true
                continue
            }
            if text.isEmpty {
                error("'contains' has an empty string, which every body contains", at: element.pointer)
                failed = true
            } else if result.contains(text) {
                error("'contains' repeats \(describe(element.value))", at: element.pointer)
                failed = true
            } else {
                result.append(text)
            }
        }
        return failed ? nil : result
    }

    /// `charset`: one of the names ``TextCharset`` knows, in any case.
    private mutating func decodeCharset(_ field: Field) -> TextCharset? {
        guard let name = string(field, "charset") else { return nil }
        if let charset = TextCharset(name: name) { return charset }
        let known = TextCharset.allCases.map(\.rawValue)
        let folded = name.lowercased().filter { $0.isLetter || $0.isNumber }
        let alias = Self.charsetAliases[folded] ?? suggestion(for: name, among: known)
        let expected = known.dropLast().map { "'\($0)'" }.joined(separator: ", ") + " or '\(known[known.count - 1])'"
        error("unknown charset \(describe(field.value)), expected \(expected)\(alias.map { ", did you mean '\($0)'?" } ?? "")", at: field.pointer)
        return nil
    }

    /// Other names of the supported charsets (RFC 1345 and IANA aliases, as people write them),
    /// letters and digits only, lowercased: they get a "did you mean".
    private static let charsetAliases: [String: String] = [
        "utf8": "utf-8", "ascii": "us-ascii", "usascii": "us-ascii", "us": "us-ascii", "iso646us": "us-ascii",
        "latin1": "iso-8859-1", "iso88591": "iso-8859-1", "l1": "iso-8859-1", "isolatin1": "iso-8859-1", "cp819": "iso-8859-1",
    ]

    // MARK: Binary

    /// `binary`: a length or bounds, a SHA-256, the bytes (`base64`); at least one.
    private mutating func decodeBinary(_ field: Field) -> BinaryExpectation? {
        let keys = FormatKeys.binaryBody
        let listed = Self.listed(keys)
        guard field.value.objectValue != nil else {
            error("'binary' must be an object with any of \(listed), found \(describe(field.value))", at: field.pointer)
            return nil
        }
        guard let fields = object(field, "'binary'", allowed: keys) else { return nil }
        guard !fields.isEmpty else {
            if field.value.objectValue?.isEmpty == true {
                error("'binary' needs at least one of \(listed); leave 'binary' out to accept any body", at: field.pointer)
            }
            return nil
        }
        let length = decodeByteCount(fields)
        let sha256 = fields["sha256"].flatMap { decodeSHA256($0) }
        let bytes = fields["base64"].flatMap { decodeBase64($0) }
        guard let length, (sha256 != nil) == (fields["sha256"] != nil), (bytes != nil) == (fields["base64"] != nil) else { return nil }
        // The bytes are the whole body: the length and digest must be theirs.
        if let bytes {
            let before = diagnostics.count
            for key in ["length", "minLength", "maxLength"] {
                guard let field = fields[key], let bound = field.value.numberValue?.intValue else { continue }
                let fits = key == "length" ? bytes.count == bound : key == "minLength" ? bytes.count >= bound : bytes.count <= bound
                if !fits { error("'\(key)' is \(bound), but 'base64' holds \(ByteCount.bytes(bytes.count))", at: field.pointer) }
            }
            if let sha256, let field = fields["sha256"] {
                let digest = SHA256.hex(bytes)
                if digest != sha256 {
                    error(
                        "'sha256' is \(Self.shortDigest(sha256, beside: digest)), but the \(ByteCount.bytes(bytes.count)) of 'base64' have the SHA-256 "
                            + Self.shortDigest(digest, beside: sha256), at: field.pointer)
                }
            }
            guard diagnostics.count == before else { return nil }
        }
        return BinaryExpectation(length: length, sha256: sha256, bytes: bytes)
    }

    /// Strict RFC 4648 §4 base64: the standard alphabet, padded, on one line.
    private mutating func decodeBase64(_ field: Field) -> [UInt8]? {
        guard let text = string(field, "base64") else { return nil }
        switch Base64Text.decode(text) {
        case .success(let bytes):
            return bytes
        case .failure(let problem):
            error("'base64' must be base64 (RFC 4648 §4: A-Z, a-z, 0-9, '+' and '/', padded with '=' to a multiple of 4), \(problem)", at: field.pointer)
            return nil
        }
    }

    // MARK: Shared

    /// `length`, or `minLength` and `maxLength`: whole numbers of bytes; nil after an error.
    private mutating func decodeByteCount(_ fields: KnownFields) -> ByteCount? {
        var failed = false
        func count(_ key: String) -> Int? {
            guard let field = fields[key] else { return nil }
            guard case .number(let number) = field.value, number.isInteger, let value = number.intValue, value >= 0 else {
                error("'\(key)' must be a whole number of bytes, 0 or more, found \(describe(field.value))", at: field.pointer)
                failed = true
                return nil
            }
            return value
        }
        let length = count("length")
        let minimum = count("minLength")
        let maximum = count("maxLength")
        guard !failed else { return nil }
        if length != nil {
            for key in ["minLength", "maxLength"] {
                guard let field = fields[key] else { continue }
                error("'\(key)' cannot be given beside 'length', which is exact", at: field.pointer, atKey: true)
                failed = true
            }
            return failed ? nil : length.map { .exactly($0) }
        }
        if let minimum, let maximum, minimum > maximum, let field = fields["maxLength"] {
            error("'maxLength' is \(maximum), less than 'minLength' \(minimum), so no body can have a length between them", at: field.pointer)
            return nil
        }
        return ByteCount(minimum: minimum, maximum: maximum)
    }

    /// `sha256`: 64 hexadecimal digits, in either case; kept in lowercase.
    private mutating func decodeSHA256(_ field: Field) -> String? {
        guard let text = string(field, "sha256") else { return nil }
        let isHex = text.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isASCIIHexDigit }
        if isHex && text.unicodeScalars.count == 64 { return text.lowercased() }
        let expected = "'sha256' must be the 64 hexadecimal digits of a SHA-256 digest"
        if isHex {
            let known = [32: " (the length of an MD5 digest)", 40: " (the length of a SHA-1 digest)", 128: " (the length of a SHA-512 digest)"]
            error("\(expected), found \(text.unicodeScalars.count) digits\(known[text.unicodeScalars.count] ?? "")", at: field.pointer)
        } else if text.unicodeScalars.count == 44, text.hasSuffix("="), Base64Text.decode(text).map(\.count) == .success(32) {
            error("\(expected), found \(describe(field.value)), which is the digest in base64; write it in hexadecimal", at: field.pointer)
        } else {
            let offending = text.unicodeScalars.enumerated().first { !($0.element.isASCII && $0.element.properties.isASCIIHexDigit) }
            let position = offending.map { ", whose character \($0.offset + 1) \(Self.character($0.element)) is not a hexadecimal digit" } ?? ""
            error("\(expected), found \(describe(field.value))\(position)", at: field.pointer)
        }
        return nil
    }

    /// `'é' (U+00E9)`, `a line break (U+000A)`.
    static func character(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let named: [Unicode.Scalar: String] = ["\n": "a line break", "\r": "a carriage return", "\t": "a tab", " ": "a space"]
        let shown = named[scalar] ?? (scalar.properties.generalCategory == .control ? "a control character" : "'\(scalar)'")
        return "\(shown) (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
    }

    /// The first 12 digits of a digest, more when `other` shares them, so two shown side by side differ.
    static func shortDigest(_ digest: String, beside other: String) -> String {
        let shared = zip(digest, other).prefix { $0 == $1 }.count
        let shown = max(12, shared + 4)
        return shown >= digest.count ? digest : String(digest.prefix(shown)) + "…"
    }

    /// `'a', 'b', 'c'`.
    static func listed(_ keys: [String]) -> String {
        keys.map { "'\($0)'" }.joined(separator: ", ")
    }
}

/// Strict base64 (RFC 4648 §4) with a reason for the first thing wrong, for lint messages.
public enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `found …` the reason the text is not base64, for the end of a message.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ text: String) -> Result<[UInt8], Problem> {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        var position = 0
        for scalar in text.unicodeScalars {
            position += 1
            if scalar == "=" {
                padding += 1
                continue
            }
            let value: UInt8?
            switch scalar {
            case "A"..."Z": value = UInt8(scalar.value - 65)
            case "a"..."z": value = UInt8(scalar.value - 97 + 26)
            case "0"..."9": value = UInt8(scalar.value - 48 + 52)
            case "+": value = 62
            case "/": value = 63
            default: value = nil
            }
            guard let value else {
                var reason = "found \(DocumentDecoder.character(scalar)) at character \(position)"
                if scalar == "-" || scalar == "_" { reason += ", which is base64url: write '+' for '-' and '/' for '_'" }
                if scalar == "\n" || scalar == "\r" || scalar == " " || scalar == "\t" { reason += "; write the base64 on one line, without spaces" }
                return .failure(Problem(description: reason))
            }
            guard padding == 0 else {
                return .failure(Problem(description: "found '=' before character \(position): padding comes only at the end"))
            }
            values.append(value)
        }
        // The last group holds 2 characters and '==' (one byte), 3 and '=' (two bytes), or is whole.
        let total = values.count + padding
        let rest = values.count % 4
        guard (rest == 0 && padding == 0) || (rest == 2 && padding == 2) || (rest == 3 && padding == 1) else {
            if padding == 0 && rest >= 2 {
                let padding = String(repeating: "=", count: 4 - rest)
                return .failure(Problem(description: "found \(total) characters, not a multiple of 4: is the padding '\(padding)' missing?"))
            }
            if rest == 1 {
                return .failure(Problem(description: "found \(total) characters, whose last group has a single character, which holds no whole byte"))
            }
            return .failure(Problem(description: "found \(total) characters, \(padding) of them '=', which do not make whole 4-character groups"))
        }
        var output: [UInt8] = []
        output.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index + 4 <= values.count {
            let quad = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6 | UInt32(values[index + 3])
            output += [UInt8(quad >> 16 & 0xFF), UInt8(quad >> 8 & 0xFF), UInt8(quad & 0xFF)]
            index += 4
        }
        switch values.count - index {
        case 2:
            output.append(values[index] << 2 | values[index + 1] >> 4)
        case 3:
            output.append(values[index] << 2 | values[index + 1] >> 4)
            output.append((values[index + 1] & 0x0F) << 4 | values[index + 2] >> 2)
        default:
            break
        }
        return .success(output)
    }

    /// The canonical base64 of `bytes`, padded.
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 0x3F)])
            output.append(alphabet[Int(triple >> 12 & 0x3F)])
            output.append(remaining > 1 ? alphabet[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(triple & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
