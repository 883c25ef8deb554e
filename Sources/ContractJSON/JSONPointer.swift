/// A JSON Pointer (RFC 6901): a path of reference tokens such as `/cases/0/response/status`.
///
/// Held as its escaped text (`/paths/~1api~1products`), one string, rather than an array of
/// tokens: a large contract keeps a pointer for every case and every schema, and a short one
/// such as `/cases/12345` fits in the string itself (Swift keeps up to 15 UTF-8 bytes inline),
/// where an array of strings cost a heap block per pointer and one per long token. `tokens`
/// splits the text when asked; walks that stop early use ``tokenSequence`` instead.
///
/// Equality and hashing are the text's: escaping is one-to-one and `/` and `~` never combine
/// with a neighbouring character, so two texts are equal exactly when their tokens are.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The escaped form: empty, or `/` before each token, `~` written `~0` and `/` written `~1`.
    private var text: String

    /// Text already in the escaped form (every `~` followed by `0` or `1`).
    private init(escaped text: String) {
        self.text = text
    }

    public init(tokens: [String] = []) {
        var count = 0
        for token in tokens { count += 1 + Self.escapedCount(token) }
        text = Self.building(count) { writer in
            for token in tokens {
                writer.append(UInt8(ascii: "/"))
                writer.appendEscaped(token)
            }
        }
    }

    /// The reference tokens, unescaped. Made from the text on each call: a walk that may stop
    /// early, or needs no array, is cheaper over ``tokenSequence``.
    public var tokens: [String] {
        get { Array(tokenSequence) }
        set { self = JSONPointer(tokens: newValue) }
    }

    /// The whole document, written as the empty string.
    public static let root = JSONPointer()

    /// Parses the string form: empty, or `/`-separated tokens where `~0` is `~` and `~1` is `/`.
    ///
    /// Read by bytes, as RFC 6901 reads code points: a `/` or `~` followed by a combining mark is
    /// still a separator or an escape (read by characters, `~` and U+0301 were one character, so
    /// the text this type writes for the token `~\u{301}`, `/~0\u{301}`, did not read back).
    public init(parsing text: String) throws(JSONPointerError) {
        guard let first = text.utf8.first else {
            self.init()
            return
        }
        guard first == UInt8(ascii: "/") else {
            throw JSONPointerError(message: "JSON Pointer '\(text)' must be empty or start with '/'")
        }
        // The text is its own escaped form once every `~` is checked.
        guard Self.hasValidEscapes(text) else { throw JSONPointerError(message: "JSON Pointer '\(text)' has '~' not followed by '0' or '1'") }
        self.init(escaped: text)
    }

    /// Parses the URI fragment form used in `$ref`: `#/$defs/a%20b`, percent-decoded first.
    public init(uriFragment: String) throws(JSONPointerError) {
        var fragment = Substring(uriFragment)
        // By bytes: a `#` followed by a combining mark is one character.
        if fragment.utf8.first == UInt8(ascii: "#") { fragment = Substring(fragment.utf8.dropFirst()) }
        guard let decoded = Self.percentDecoded(fragment) else {
            throw JSONPointerError(message: "JSON Pointer '\(uriFragment)' has an invalid percent-encoding")
        }
        try self.init(parsing: decoded)
    }

    public func appending(_ token: String) -> JSONPointer {
        // One string at its final size: grown by appends it would keep spare capacity, and the
        // model holds these.
        let base = text
        return JSONPointer(escaped: Self.building(base.utf8.count + 1 + Self.escapedCount(token)) { writer in
            writer.append(base)
            writer.append(UInt8(ascii: "/"))
            writer.appendEscaped(token)
        })
    }

    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    public var parent: JSONPointer? {
        guard let slash = text.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        return JSONPointer(escaped: String(text[..<slash]))
    }

    public var isRoot: Bool { text.isEmpty }

    /// How many tokens, without splitting: every `/` in the text starts one (a `/` in a token is `~1`).
    public var tokenCount: Int {
        text.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
    }

    /// The escaped string form, e.g. `/paths/~1api~1products`.
    public var description: String { text }

    /// The URI fragment form (`#/a%20b`), percent-encoding what a URI fragment cannot hold.
    public var uriFragment: String {
        var result = "#"
        for byte in text.utf8 {
            if Self.isFragmentSafe(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += "%" + hex(UInt32(byte), width: 2)
            }
        }
        return result
    }

    /// Orders pointers token by token, array indices numerically, so `/2` comes before `/10`.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        var left = lhs.tokenSequence.makeIterator()
        var right = rhs.tokenSequence.makeIterator()
        while true {
            // Tokens written alike are equal; only differing ones are unescaped and compared
            // as strings (which may still find them equal, by canonical equivalence).
            guard let leftRange = left.nextRange() else { return right.nextRange() != nil }
            guard let rightRange = right.nextRange() else { return false }
            if lhs.text.utf8[leftRange].elementsEqual(rhs.text.utf8[rightRange]) { continue }
            let leftToken = lhs.token(at: leftRange)
            let rightToken = rhs.token(at: rightRange)
            if leftToken == rightToken { continue }
            if let leftIndex = arrayIndex(leftToken), let rightIndex = arrayIndex(rightToken) {
                return leftIndex < rightIndex
            }
            return leftToken < rightToken
        }
    }

    /// The array index a token denotes: `0` or digits without a leading zero; nil otherwise (`-` included).
    public static func arrayIndex(_ token: String) -> Int? {
        let utf8 = token.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
        if first == UInt8(ascii: "0") { return utf8.count == 1 ? 0 : nil }
        guard utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(token)
    }

    private static func isFragmentSafe(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
        }
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        PercentEncoding.decoded(text)
    }
}

extension JSONPointer {
    /// The tokens one at a time, unescaped, without an array: for walks that may stop early.
    public var tokenSequence: TokenSequence { TokenSequence(pointer: self) }

    public struct TokenSequence: Sequence, Sendable {
        let pointer: JSONPointer

        public func makeIterator() -> Iterator {
            Iterator(pointer: pointer, position: pointer.text.utf8.startIndex)
        }

        public struct Iterator: IteratorProtocol, Sendable {
            let pointer: JSONPointer
            var position: String.Index

            public mutating func next() -> String? {
                nextRange().map { pointer.token(at: $0) }
            }

            /// Where the next token is written in the text (escaped, without its `/`).
            mutating func nextRange() -> Range<String.Index>? {
                let utf8 = pointer.text.utf8
                guard position < utf8.endIndex else { return nil }
                let start = utf8.index(after: position)
                let end = utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? utf8.endIndex
                position = end
                return start..<end
            }
        }
    }

    /// The token written at `range` of the text, unescaped.
    fileprivate func token(at range: Range<String.Index>) -> String {
        let written = text.utf8[range]
        guard written.contains(UInt8(ascii: "~")) else { return String(text[range]) }
        return Self.building(written.count) { writer in
            var escaping = false
            for byte in written {
                if escaping {
                    writer.append(byte == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                    escaping = false
                } else if byte == UInt8(ascii: "~") {
                    escaping = true
                } else {
                    writer.append(byte)
                }
            }
        }
    }
}

extension JSONPointer {
    /// Bytes written into a string made at a known size.
    fileprivate struct Writer {
        var buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        mutating func append(_ text: String) {
            for byte in text.utf8 { append(byte) }
        }

        mutating func appendEscaped(_ token: String) {
            for byte in token.utf8 {
                switch byte {
                case UInt8(ascii: "~"): append(UInt8(ascii: "~")); append(UInt8(ascii: "0"))
                case UInt8(ascii: "/"): append(UInt8(ascii: "~")); append(UInt8(ascii: "1"))
                default: append(byte)
                }
            }
        }
    }

    /// A string of at most `capacity` UTF-8 bytes, written by `write`: allocated once at that
    /// size (held inline when it is 15 bytes or fewer).
    fileprivate static func building(_ capacity: Int, _ write: (inout Writer) -> Void) -> String {
        guard capacity > 0 else { return "" }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            write(&writer)
            return writer.count
        }
    }

    /// The length of `token` escaped: one more byte for each `~` and `/`.
    fileprivate static func escapedCount(_ token: String) -> Int {
        var count = 0
        for byte in token.utf8 {
            count += byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") ? 2 : 1
        }
        return count
    }

    /// Whether every `~` in `text` is followed by `0` or `1`.
    fileprivate static func hasValidEscapes(_ text: String) -> Bool {
        var afterTilde = false
        for byte in text.utf8 {
            if afterTilde {
                guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else { return false }
                afterTilde = false
            } else if byte == UInt8(ascii: "~") {
                afterTilde = true
            }
        }
        return !afterTilde
    }
}

/// A malformed JSON Pointer, or one that does not resolve.
public struct JSONPointerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension JSONValue {
    /// The value at `pointer`, or nil when it does not resolve.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? {
        try? resolve(pointer)
    }

    /// The value at `pointer`; the error names the first token that does not resolve and why.
    public func resolve(_ pointer: JSONPointer) throws(JSONPointerError) -> JSONValue {
        var current = self
        for (depth, token) in pointer.tokenSequence.enumerated() {
            // Where the walk stopped, for messages only.
            var walked: JSONPointer { JSONPointer(tokens: Array(pointer.tokens.prefix(depth))) }
            switch current {
            case .object(let object):
                guard let position = object.position(of: token) else {
                    throw JSONPointerError(message: "no member '\(token)' in the object at '\(walked)'")
                }
                current = object.members[position].value
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token) else {
                    throw JSONPointerError(message: "'\(token)' is not an array index, at '\(walked)'")
                }
                guard index < elements.count else {
                    throw JSONPointerError(message: "index \(index) is out of bounds for the array of \(elements.count) at '\(walked)'")
                }
                current = elements[index]
            default:
                throw JSONPointerError(message: "cannot descend into the \(current.typeName) at '\(walked)' with '\(token)'")
            }
        }
        return current
    }
}
