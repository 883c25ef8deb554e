/// A JSON Pointer (RFC 6901): a path of reference tokens such as `/cases/0/response/status`.
///
/// Held as its escaped text (`/paths/~1api~1products`) when that is at most ``textLimit`` bytes,
/// else as its tokens. A large contract keeps a pointer for every case and every schema: as text,
/// `/cases/12345` fits in the string itself (Swift keeps up to 15 UTF-8 bytes inline) and
/// `/cases/12345/response/schema` is one small block, where an array of tokens cost a block of 64
/// and 96 bytes. A long pointer (a YAML key of megabytes) stays tokens, so appending to it shares
/// the long token instead of copying the whole text for every value below it.
///
/// The form is a function of the value (its escaped length), so equal pointers nearly always have
/// the same form; equality falls back to the tokens when they do not (canonically equivalent
/// texts of different lengths), and hashing always reads the tokens.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    private enum Storage: Sendable {
        /// The escaped form: empty, or `/` before each token, `~` written `~0` and `/` written
        /// `~1`; at most ``textLimit`` bytes.
        case text(String)
        /// More than ``textLimit`` bytes once escaped.
        case tokens([String])
    }

    private var storage: Storage

    /// The longest escaped form held as text: appending copies at most this much.
    static let textLimit = 64

    public init(tokens: [String] = []) {
        var length = 0
        for token in tokens {
            length += 1 + Self.escapedCount(token, beyond: Self.textLimit - length - 1)
            if length > Self.textLimit { break }
        }
        storage = length <= Self.textLimit ? .text(Self.escaped(tokens, length: length)) : .tokens(tokens)
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The reference tokens, unescaped (made from the text when the pointer is short).
    public var tokens: [String] {
        get {
            switch storage {
            case .text(let text):
                var tokens: [String] = []
                Self.forEachToken(of: text) { tokens.append($0) }
                return tokens
            case .tokens(let tokens):
                return tokens
            }
        }
        set { self = JSONPointer(tokens: newValue) }
    }

    /// The whole document, written as the empty string.
    public static let root = JSONPointer()

    /// Parses the string form: empty, or `/`-separated tokens where `~0` is `~` and `~1` is `/`.
    /// Read by bytes: `/` and `~` are ASCII, and a combining mark after one (a character to
    /// Swift) leaves it a separator or an escape.
    public init(parsing text: String) throws(JSONPointerError) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else {
            self.init()
            return
        }
        guard first == UInt8(ascii: "/") else {
            throw JSONPointerError(message: "JSON Pointer '\(text)' must be empty or start with '/'")
        }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "~") {
            guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1") else {
                throw JSONPointerError(message: "JSON Pointer '\(text)' has '~' not followed by '0' or '1'")
            }
        }
        if bytes.count <= Self.textLimit {
            self.init(storage: .text(text))
        } else {
            var tokens: [String] = []
            Self.forEachToken(of: text) { tokens.append($0) }
            self.init(storage: .tokens(tokens))
        }
    }

    /// Parses the URI fragment form used in `$ref`: `#/$defs/a%20b`, percent-decoded first.
    public init(uriFragment: String) throws(JSONPointerError) {
        var fragment = Substring(uriFragment)
        if fragment.hasPrefix("#") { fragment = fragment.dropFirst() }
        guard let decoded = Self.percentDecoded(fragment) else {
            throw JSONPointerError(message: "JSON Pointer '\(uriFragment)' has an invalid percent-encoding")
        }
        try self.init(parsing: decoded)
    }

    public func appending(_ token: String) -> JSONPointer {
        switch storage {
        case .text(let text):
            let length = text.utf8.count + 1 + Self.escapedCount(token, beyond: Self.textLimit - text.utf8.count - 1)
            guard length <= Self.textLimit else { return JSONPointer(storage: .tokens(tokens + [token])) }
            return JSONPointer(storage: .text(Self.escaped(token, after: text, length: length)))
        case .tokens(let tokens):
            // One allocation at the final size (`tokens + [token]` made two).
            var longer: [String] = []
            longer.reserveCapacity(tokens.count + 1)
            longer.append(contentsOf: tokens)
            longer.append(token)
            return JSONPointer(storage: .tokens(longer))
        }
    }

    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    public var parent: JSONPointer? {
        switch storage {
        case .text(var text):
            let slash = text.withUTF8 { bytes in bytes.lastIndex(of: UInt8(ascii: "/")) }
            guard let slash else { return nil }
            return JSONPointer(storage: .text(text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[..<slash]), as: UTF8.self) }))
        case .tokens(let tokens):
            return JSONPointer(tokens: Array(tokens.dropLast()))
        }
    }

    /// The last reference token, unescaped; nil for the root.
    public var lastToken: String? {
        switch storage {
        case .text(var text):
            return text.withUTF8 { bytes in
                bytes.lastIndex(of: UInt8(ascii: "/")).map { Self.unescaped(UnsafeBufferPointer(rebasing: bytes[($0 + 1)...])) }
            }
        case .tokens(let tokens):
            return tokens.last
        }
    }

    public var isRoot: Bool {
        if case .text(let text) = storage { return text.isEmpty }
        return false
    }

    /// The escaped string form, e.g. `/paths/~1api~1products`.
    public var description: String {
        switch storage {
        case .text(let text):
            return text
        case .tokens(let tokens):
            return Self.escaped(tokens, length: tokens.reduce(0) { $0 + 1 + Self.escapedCount($1) })
        }
    }

    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        switch (lhs.storage, rhs.storage) {
        // Escaping is one-to-one, and `/` and `~` are starters no mark reorders across, so two
        // texts are equal (canonically, as strings compare) exactly when their tokens are.
        case (.text(let left), .text(let right)): left == right
        case (.tokens(let left), .tokens(let right)): left == right
        default: lhs.tokens == rhs.tokens
        }
    }

    /// The tokens', whatever the form: equal pointers of different forms hash alike.
    public func hash(into hasher: inout Hasher) {
        var count = 0
        switch storage {
        case .text(let text):
            Self.forEachToken(of: text) { token in
                hasher.combine(token)
                count += 1
            }
        case .tokens(let tokens):
            for token in tokens { hasher.combine(token) }
            count = tokens.count
        }
        hasher.combine(count)
    }

    /// The URI fragment form (`#/a%20b`), percent-encoding what a URI fragment cannot hold.
    public var uriFragment: String {
        var result = "#"
        for byte in description.utf8 {
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
        let (lhs, rhs) = (lhs.tokens, rhs.tokens)
        for (left, right) in zip(lhs, rhs) where left != right {
            if let leftIndex = arrayIndex(left), let rightIndex = arrayIndex(right) {
                return leftIndex < rightIndex
            }
            return left < right
        }
        return lhs.count < rhs.count
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

    // MARK: The escaped form

    /// A token's length once `~` and `/` are escaped (each becomes two bytes); counting stops
    /// once it passes `limit` (a key of megabytes is not read to its end to learn it is long).
    private static func escapedCount(_ token: String, beyond limit: Int = .max) -> Int {
        var count = 0
        for byte in token.utf8 {
            count += byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/") ? 2 : 1
            if count > limit { break }
        }
        return count
    }

    /// Writes `/token` escaped at `buffer[index...]`; the index after it.
    private static func write(_ token: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        var index = index
        buffer[index] = UInt8(ascii: "/")
        index += 1
        for byte in token.utf8 {
            switch byte {
            case UInt8(ascii: "~"):
                buffer[index] = UInt8(ascii: "~")
                buffer[index + 1] = UInt8(ascii: "0")
                index += 2
            case UInt8(ascii: "/"):
                buffer[index] = UInt8(ascii: "~")
                buffer[index + 1] = UInt8(ascii: "1")
                index += 2
            default:
                buffer[index] = byte
                index += 1
            }
        }
        return index
    }

    /// The escaped form of `tokens`, `length` bytes, made at its size (inline when short).
    private static func escaped(_ tokens: [String], length: Int) -> String {
        String(unsafeUninitializedCapacity: length) { buffer in
            tokens.reduce(0) { index, token in write(token, into: buffer, at: index) }
        }
    }

    /// `text` (an escaped form) with `/token` after it, `length` bytes in all.
    private static func escaped(_ token: String, after text: String, length: Int) -> String {
        var text = text
        return String(unsafeUninitializedCapacity: length) { buffer in
            let count = text.withUTF8 { bytes in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[..<bytes.count]).initialize(from: bytes)
                return bytes.count
            }
            return write(token, into: buffer, at: count)
        }
    }

    /// Each token of an escaped form, unescaped, in order.
    private static func forEachToken(of text: String, _ body: (String) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return }
            var start = 1
            for index in 1...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                body(unescaped(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                start = index + 1
            }
        }
    }

    private static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "~")) else { return String(decoding: bytes, as: UTF8.self) }
        var token: [UInt8] = []
        token.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "~"), index + 1 < bytes.count {
                token.append(bytes[index + 1] == UInt8(ascii: "0") ? UInt8(ascii: "~") : UInt8(ascii: "/"))
                index += 2
            } else {
                token.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: token, as: UTF8.self)
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
        let tokens = pointer.tokens
        for (depth, token) in tokens.enumerated() {
            // Where the walk stopped, for messages only: building it on every step cost an
            // allocation per token on every lookup.
            var walked: JSONPointer { JSONPointer(tokens: Array(tokens.prefix(depth))) }
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
