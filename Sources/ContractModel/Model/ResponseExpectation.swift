import ContractJSON
import ContractSchema

/// What the response of a case must look like.
public struct ResponseExpectation: Sendable, Hashable {
    public var status: StatusExpectation
    public var headers: [HeaderExpectation]
    public var body: BodyExpectation
    /// Values of the JSON body held to what the flow captured or sent, checked in order.
    public var values: [ValueExpectation]

    public init(status: StatusExpectation, headers: [HeaderExpectation] = [], body: BodyExpectation = .unchecked, values: [ValueExpectation] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.values = values
    }

    /// Every text with placeholders the response is held to: header matchers' values and
    /// patterns, and the `values`' (the captures and environment variables a run must have).
    public var templates: [TemplateString] {
        var templates = values.flatMap(\.templates)
        for header in headers {
            switch header.matcher {
            case .equals(let value), .differs(let value): templates.append(value)
            case .pattern(let pattern): templates += [try? TemplateString(parsing: pattern)].compactMap { $0 }
            case .present, .absent: break
            }
        }
        return templates
    }
}

/// Accepted status codes: exact codes and classes such as `2XX`.
public struct StatusExpectation: Sendable, Hashable, CustomStringConvertible {
    public enum Alternative: Sendable, Hashable {
        case code(Int)
        /// The first digit of the class: 2 for `2XX`.
        case `class`(Int)
    }

    public var alternatives: [Alternative]

    public init(_ alternatives: [Alternative]) {
        self.alternatives = alternatives
    }

    public static let success = StatusExpectation([.class(2)])

    public func accepts(_ status: Int) -> Bool {
        alternatives.contains {
            switch $0 {
            case .code(let code): code == status
            case .class(let digit): status / 100 == digit
            }
        }
    }

    /// `200`, `2XX`, or `200, 201 or 2XX`.
    public var description: String {
        let parts = alternatives.map {
            switch $0 {
            case .code(let code): String(code)
            case .class(let digit): "\(digit)XX"
            }
        }
        guard parts.count > 1, let last = parts.last else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// A response header check; names are compared case-insensitively.
public struct HeaderExpectation: Sendable, Hashable {
    public enum Matcher: Sendable, Hashable {
        case equals(TemplateString)
        /// An ECMA-262 regular expression, searched for anywhere in the value unless anchored.
        case pattern(String)
        case present
        case absent
        /// Any other value than this one: an `ETag` after an update is not the one captured before.
        case differs(TemplateString)
    }

    /// How many times the field may come (`repeats` in a matcher object).
    public enum Occurrences: Sendable, Hashable {
        /// Not stated: one value, but the same value twice is tolerated, and list fields
        /// (`Set-Cookie`, `Vary`…) may repeat.
        case unstated
        /// `"repeats": false`: exactly one field; a second one fails the case even with the same value.
        case once
        /// `"repeats": true`: the field may come any number of times; never reported as repeated.
        case repeats
    }

    public var name: String
    public var matcher: Matcher
    public var occurrences: Occurrences

    public init(name: String, matcher: Matcher, occurrences: Occurrences = .unstated) {
        self.name = name
        self.matcher = matcher
        self.occurrences = occurrences
    }
}

/// The body a response must have: ``unchecked``, ``json(schema:example:)``, ``text(_:)``,
/// ``empty`` or ``binary(_:)``.
///
/// A struct over an enum, not an enum, so a kind of body added later (a form, XML) breaks no
/// user's `switch`: read the kind with ``kind`` (`body.kind == .json`) and the values with
/// ``json``, ``text`` and ``binary``. Code in this package switches on `base` exhaustively.
public struct BodyExpectation: Sendable, Hashable {
    /// A text or binary expectation is boxed (`indirect`): inline, its conditions made every
    /// body as large as theirs, and a large contract's cases mostly expect JSON.
    package enum Base: Sendable, Hashable {
        case unchecked
        case json(schema: SchemaReference, example: JSONValue?)
        indirect case text(TextMatcher)
        case empty
        indirect case binary(BinaryExpectation)
    }

    /// Which kind of body, without its values.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Hashable, Sendable {
            case unchecked, json, text, empty, binary
        }

        fileprivate let base: Base

        /// See ``BodyExpectation/unchecked``.
        public static let unchecked = Kind(base: .unchecked)
        /// See ``BodyExpectation/json(schema:example:)``.
        public static let json = Kind(base: .json)
        /// See ``BodyExpectation/text(_:)``.
        public static let text = Kind(base: .text)
        /// See ``BodyExpectation/empty``.
        public static let empty = Kind(base: .empty)
        /// See ``BodyExpectation/binary(_:)``.
        public static let binary = Kind(base: .binary)

        /// `unchecked`, `json`, `text`, `empty` or `binary`.
        public var description: String { base.rawValue }
    }

    package let base: Base

    package init(_ base: Base) {
        self.base = base
    }

    /// No expectation about the body.
    public static let unchecked = BodyExpectation(.unchecked)
    /// JSON valid against the schema; the example, when given, is a valid body.
    public static func json(schema: SchemaReference, example: JSONValue?) -> BodyExpectation {
        BodyExpectation(.json(schema: schema, example: example))
    }
    /// Text matching `matcher`.
    public static func text(_ matcher: TextMatcher) -> BodyExpectation { BodyExpectation(.text(matcher)) }
    /// No body at all.
    public static let empty = BodyExpectation(.empty)
    /// Bytes, not text: a length or bounds, a SHA-256, or the bytes themselves.
    public static func binary(_ expectation: BinaryExpectation) -> BodyExpectation { BodyExpectation(.binary(expectation)) }

    /// Which kind of body this is.
    public var kind: Kind {
        switch base {
        case .unchecked: .unchecked
        case .json: .json
        case .text: .text
        case .empty: .empty
        case .binary: .binary
        }
    }

    /// The schema and example of a JSON body; nil for another kind.
    public var json: (schema: SchemaReference, example: JSONValue?)? {
        guard case .json(let schema, let example) = base else { return nil }
        return (schema, example)
    }

    /// The matcher of a text body; nil for another kind.
    public var text: TextMatcher? {
        guard case .text(let matcher) = base else { return nil }
        return matcher
    }

    /// What a binary body must be; nil for another kind.
    public var binary: BinaryExpectation? {
        guard case .binary(let expectation) = base else { return nil }
        return expectation
    }

    /// The regular expressions the body is matched with, for a plan that compiles them once.
    public var patterns: [String] {
        guard case .text(let matcher) = base, let pattern = matcher.conditions.pattern else { return [] }
        return [pattern]
    }
}

/// A text body: the two single forms the format has always had, or conditions that all hold.
/// A `text` object with only `equals` or only `pattern` decodes to the single form, so those
/// contracts mean exactly what they did.
///
/// `@frozen`: closed, it will not grow. A new text condition goes into ``TextConditions`` (a
/// struct, so that adds a property, not a case), and `.conditions` holds any mix of them; so a
/// `switch` over these three cases stays exhaustive.
@frozen
public enum TextMatcher: Sendable, Hashable {
    case equals(String)
    case pattern(String)
    /// Any other `text` object: `contains`, a length, `sha256`, `charset`, or several conditions.
    case conditions(TextConditions)

    /// Every form as conditions, for the code that checks and synthesizes bodies.
    public var conditions: TextConditions {
        switch self {
        case .equals(let text): TextConditions(equals: text)
        case .pattern(let pattern): TextConditions(pattern: pattern)
        case .conditions(let conditions): conditions
        }
    }
}

/// What a text body must satisfy; every condition given must hold. Lengths and the digest are of
/// the body's bytes as they come; `equals`, `pattern` and `contains` are of the text those bytes
/// decode to in ``charset`` (UTF-8 when not stated).
public struct TextConditions: Sendable, Hashable {
    /// The exact text. When given, the other conditions are implied by it (lint checks that they
    /// agree), so a body that differs is reported by this one alone.
    public var equals: String?
    /// An ECMA-262 regular expression, found anywhere in the text unless anchored.
    public var pattern: String?
    /// Substrings the text must contain, each anywhere; compared as the charset's bytes.
    public var contains: [String]
    public var length: ByteCount
    /// Lowercase hexadecimal SHA-256 of the body's bytes.
    public var sha256: String?
    /// The charset the bytes must decode with; nil is UTF-8, as a text body always was.
    public var charset: TextCharset?

    public init(
        equals: String? = nil, pattern: String? = nil, contains: [String] = [], length: ByteCount = .any, sha256: String? = nil,
        charset: TextCharset? = nil
    ) {
        self.equals = equals
        self.pattern = pattern
        self.contains = contains
        self.length = length
        self.sha256 = sha256
        self.charset = charset
    }

    /// The charset the body is decoded with.
    public var decodingCharset: TextCharset { charset ?? .utf8 }

    /// What `body` fails of these conditions, in a fixed order (decoding, equals, pattern, contains,
    /// length, SHA-256); empty when it passes. Text conditions are left out when the bytes do not
    /// decode; with `equals`, only the decoding and `equals` itself are checked. `regex` gives the
    /// compiled pattern; nil when it does not compile (a lint error, so never in a checked tree).
    public func mismatches(_ body: [UInt8], regex: (String) -> ECMARegex?) -> [TextMismatch] {
        var found: [TextMismatch] = []
        let charset = decodingCharset
        let undecodable = charset.firstUndecodableByte(in: body)
        if let undecodable { found.append(.undecodable(offset: undecodable)) }
        if let equals {
            if undecodable == nil, charset.encode(equals) != body { found.append(.notEqual) }
            return found
        }
        if undecodable == nil {
            if let pattern {
                if let compiled = regex(pattern) {
                    if !compiled.matches(charset.decode(body)) { found.append(.noMatch) }
                } else {
                    found.append(.invalidPattern)
                }
            }
            let missing = contains.filter { wanted in charset.encode(wanted).map { ByteSearch.firstOffset(of: $0, in: body) == nil } ?? true }
            if !missing.isEmpty { found.append(.missing(missing)) }
        }
        if !length.accepts(body.count) { found.append(.length(body.count)) }
        if let sha256 {
            let digest = SHA256.hex(body)
            if digest != sha256 { found.append(.sha256(digest)) }
        }
        return found
    }
}

/// One condition of a `text` body that a body fails.
public enum TextMismatch: Sendable, Hashable {
    /// The byte at `offset` does not begin a character of the charset.
    case undecodable(offset: Int)
    case notEqual
    case noMatch
    case invalidPattern
    /// The `contains` substrings not found, in the contract's order.
    case missing([String])
    /// The body's length in bytes.
    case length(Int)
    /// The body's SHA-256.
    case sha256(String)
}

/// A binary body: a length or bounds, a digest, or the exact bytes.
public struct BinaryExpectation: Sendable, Hashable {
    public var length: ByteCount
    /// Lowercase hexadecimal SHA-256 of the body.
    public var sha256: String?
    /// The exact bytes (`base64` in the contract). When given, the length and digest are implied
    /// by them (lint checks that they agree), so a body that differs is reported by this alone.
    public var bytes: [UInt8]?

    public init(length: ByteCount = .any, sha256: String? = nil, bytes: [UInt8]? = nil) {
        self.length = length
        self.sha256 = sha256
        self.bytes = bytes
    }

    /// What `body` fails of this expectation; empty when it passes.
    public func mismatches(_ body: [UInt8]) -> [BinaryMismatch] {
        if let bytes { return bytes == body ? [] : [.bytes] }
        var found: [BinaryMismatch] = []
        if !length.accepts(body.count) { found.append(.length(body.count)) }
        if let sha256 {
            let digest = SHA256.hex(body)
            if digest != sha256 { found.append(.sha256(digest)) }
        }
        return found
    }
}

public enum BinaryMismatch: Sendable, Hashable {
    /// Not the bytes of `base64`.
    case bytes
    /// The body's length in bytes.
    case length(Int)
    /// The body's SHA-256.
    case sha256(String)
}

/// How many bytes a body may have: `length` (exact), or `minLength` and `maxLength` (inclusive).
public struct ByteCount: Sendable, Hashable, CustomStringConvertible {
    public var minimum: Int?
    public var maximum: Int?

    public init(minimum: Int? = nil, maximum: Int? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }

    public static let any = ByteCount()

    public static func exactly(_ count: Int) -> ByteCount {
        ByteCount(minimum: count, maximum: count)
    }

    /// The exact count, when the bounds meet.
    public var exact: Int? {
        guard let minimum, minimum == maximum else { return nil }
        return minimum
    }

    public var isAny: Bool { minimum == nil && maximum == nil }

    public func accepts(_ count: Int) -> Bool {
        count >= (minimum ?? 0) && count <= (maximum ?? Int.max)
    }

    /// `exactly 1,024 bytes`, `at least 1 byte`, `at most 10 bytes`, `from 1 to 10 bytes`.
    public var description: String {
        switch (minimum, maximum) {
        case (let low?, let high?) where low == high: "exactly \(Self.bytes(low))"
        case (let low?, let high?): "from \(Self.grouped(low)) to \(Self.bytes(high))"
        case (let low?, nil): "at least \(Self.bytes(low))"
        case (nil, let high?): "at most \(Self.bytes(high))"
        case (nil, nil): "any number of bytes"
        }
    }

    /// `1 byte`, `1,024 bytes`.
    public static func bytes(_ count: Int) -> String {
        "\(grouped(count)) byte\(count == 1 ? "" : "s")"
    }

    /// `1,048,576`.
    public static func grouped(_ number: Int) -> String {
        var digits = Array(String(number.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (number < 0 ? "-" : "") + String(digits)
    }
}

/// A JSON Schema as written in a contract, with where it was written, so references resolve
/// from the right file and errors point into it.
public struct SchemaReference: Sendable, Hashable {
    public var schema: JSONValue
    public var file: String
    /// ``pointer`` without its usual last tokens, which ``place`` names.
    private var base: JSONPointer
    private var place: Place

    /// The usual ends of a schema's pointer. A large contract writes a schema in every case, at
    /// `/cases/N/response/schema`: 28 bytes and more, a block of its own in every case's model
    /// (6.4 MB of a contract of 100,000 cases), where `/cases/N` fits in the pointer itself.
    private enum Place: UInt8, Sendable, Hashable {
        /// ``base`` is the whole pointer.
        case whole
        case responseSchema
        case requestSchema

        var tokens: (String, String)? {
            switch self {
            case .whole: nil
            case .responseSchema: ("response", "schema")
            case .requestSchema: ("request", "schema")
            }
        }
    }

    /// Where the schema is written in ``file``.
    public var pointer: JSONPointer {
        get { place.tokens.map { base.appending($0.0).appending($0.1) } ?? base }
        set { (base, place) = Self.split(newValue) }
    }

    public init(schema: JSONValue, file: String, pointer: JSONPointer) {
        self.schema = schema
        self.file = file
        (base, place) = Self.split(pointer)
    }

    /// A function of the pointer alone, so equal pointers are held alike and `==` and hashing
    /// compare what they always did.
    private static func split(_ pointer: JSONPointer) -> (JSONPointer, Place) {
        for place in [Place.responseSchema, .requestSchema] {
            guard let (parentToken, token) = place.tokens, pointer.lastToken == token,
                  let parent = pointer.parent, parent.lastToken == parentToken, let base = parent.parent else { continue }
            return (base, place)
        }
        return (pointer, .whole)
    }
}

/// The charsets a text body can be held to (`charset`). Names are compared ignoring case.
public enum TextCharset: String, Sendable, Hashable, CaseIterable {
    case utf8 = "utf-8"
    case usASCII = "us-ascii"
    /// ISO-8859-1 proper: each byte is the code point of the same number (0x80–0x9F are the C1
    /// controls, not the Windows-1252 characters browsers read there).
    case isoLatin1 = "iso-8859-1"

    /// The charset `name` names, ignoring case; nil for any other name.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// `UTF-8`, `US-ASCII`, `ISO-8859-1`: as messages show it.
    public var displayName: String { rawValue.uppercased() }

    /// The offset of the first byte that does not begin or continue a character of this charset
    /// (RFC 3629 for UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF), or nil.
    public func firstUndecodableByte(in bytes: [UInt8]) -> Int? {
        switch self {
        case .usASCII:
            return bytes.firstIndex { $0 >= 0x80 }
        case .isoLatin1:
            return nil
        case .utf8:
            var iterator = bytes.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            var offset = 0
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded): offset += encoded.count
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
    }

    /// The text of `bytes`; a byte that does not decode becomes U+FFFD.
    public func decode(_ bytes: [UInt8]) -> String {
        switch self {
        case .utf8: return String(decoding: bytes, as: UTF8.self)
        case .usASCII, .isoLatin1:
            var scalars = String.UnicodeScalarView()
            for byte in bytes { scalars.append(self == .usASCII && byte >= 0x80 ? "\u{FFFD}" : Unicode.Scalar(byte)) }
            return String(scalars)
        }
    }

    /// The bytes of `text` in this charset; nil when a character cannot be written in it.
    public func encode(_ text: String) -> [UInt8]? {
        switch self {
        case .utf8: return Array(text.utf8)
        case .usASCII, .isoLatin1:
            let limit: UInt32 = self == .usASCII ? 0x7F : 0xFF
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.unicodeScalars.count)
            for scalar in text.unicodeScalars {
                guard scalar.value <= limit else { return nil }
                bytes.append(UInt8(scalar.value))
            }
            return bytes
        }
    }

    /// The first character of `text` this charset cannot write, for a message.
    public func firstUnencodable(in text: String) -> Unicode.Scalar? {
        guard self != .utf8 else { return nil }
        let limit: UInt32 = self == .usASCII ? 0x7F : 0xFF
        return text.unicodeScalars.first { $0.value > limit }
    }
}

/// Byte-string search, for `contains` and the hints around it.
public enum ByteSearch {
    /// The offset of the first occurrence of `needle` in `haystack` at or after `start`, or nil.
    /// Plain search: a body is checked once, and `contains` lists are short.
    public static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard !needle.isEmpty else { return min(start, haystack.count) }
        guard needle.count <= haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { haystack -> Int? in
            needle.withUnsafeBufferPointer { needle -> Int? in
                let first = needle[0]
                var index = max(0, start)
                let last = haystack.count - needle.count
                while index <= last {
                    if haystack[index] == first {
                        var matched = 1
                        while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
                        if matched == needle.count { return index }
                    }
                    index += 1
                }
                return nil
            }
        }
    }
}
