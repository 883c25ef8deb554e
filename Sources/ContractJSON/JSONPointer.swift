/// A JSON Pointer (RFC 6901): a path of reference tokens such as `/cases/0/response/status`.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var tokens: [String]

    public init(tokens: [String] = []) {
        self.tokens = tokens
    }

    /// The whole document, written as the empty string.
    public static let root = JSONPointer()

    /// Parses the string form: empty, or `/`-separated tokens where `~0` is `~` and `~1` is `/`.
    public init(parsing text: String) throws(JSONPointerError) {
        guard !text.isEmpty else {
            self.init()
            return
        }
        guard text.hasPrefix("/") else {
            throw JSONPointerError(message: "JSON Pointer '\(text)' must be empty or start with '/'")
        }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else {
                    token.append(character)
                    continue
                }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default:
                    throw JSONPointerError(message: "JSON Pointer '\(text)' has '~' not followed by '0' or '1'")
                }
            }
            tokens.append(token)
        }
        self.init(tokens: tokens)
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
        // One allocation at the final size (`tokens + [token]` made two).
        var longer: [String] = []
        longer.reserveCapacity(tokens.count + 1)
        longer.append(contentsOf: tokens)
        longer.append(token)
        return JSONPointer(tokens: longer)
    }

    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    public var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    public var isRoot: Bool { tokens.isEmpty }

    /// The escaped string form, e.g. `/paths/~1api~1products`.
    public var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            // Most tokens need no escape: appended whole, without a copy per character.
            if token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
                text.append(token.replacingOccurrences("~", with: "~0").replacingOccurrences("/", with: "~1"))
            } else {
                text.append(token)
            }
        }
        return text
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
        for (left, right) in zip(lhs.tokens, rhs.tokens) where left != right {
            if let leftIndex = arrayIndex(left), let rightIndex = arrayIndex(right) {
                return leftIndex < rightIndex
            }
            return left < right
        }
        return lhs.tokens.count < rhs.tokens.count
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
        for (depth, token) in pointer.tokens.enumerated() {
            // Where the walk stopped, for messages only: building it on every step cost an
            // allocation per token on every lookup.
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

extension String {
    /// Literal replacement without Foundation.
    func replacingOccurrences(_ target: Character, with replacement: String) -> String {
        guard contains(target) else { return self }
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
