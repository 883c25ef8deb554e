/// A strict RFC 8259 parser that keeps numbers exact, members in order and, on request, the
/// position of every value and key.
///
/// It never crashes or hangs on any input: nesting is limited (``maxDepth``), every byte
/// sequence is checked as UTF-8, and the first problem is thrown as a ``JSONSyntaxError``
/// naming the line, the column, what was expected and what was found.
public struct JSONParser: Sendable {
    /// Deeper documents are rejected rather than risking the stack; 512 is far beyond real API data.
    public var maxDepth: Int
    /// Record where every value and key starts (``JSONDocument/sourceMap``).
    public var tracksLocations: Bool

    public init(maxDepth: Int = 512, tracksLocations: Bool = true) {
        self.maxDepth = maxDepth
        self.tracksLocations = tracksLocations
    }

    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONDocument {
        let result: Result<(JSONValue, JSONSourceMap?, [PendingDuplicate]), PendingError> = bytes.withUnsafeBufferPointer { buffer in
            var core = ParserCore(bytes: buffer, maxDepth: maxDepth, tracksLocations: tracksLocations)
            do throws(PendingError) {
                return .success(try core.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        let source = SourceText(bytes, indexLines: tracksLocations)
        switch result {
        case .success(let (value, map, pending)):
            let duplicates = pending.map {
                JSONDocument.DuplicateKey(
                    key: $0.pointer.tokens.last ?? "", pointer: $0.pointer,
                    location: source.location(ofOffset: $0.offset), firstLocation: source.location(ofOffset: $0.firstOffset))
            }
            return JSONDocument(value: value, source: source, sourceMap: map, duplicateKeys: duplicates)
        case .failure(let error):
            throw JSONSyntaxError(message: error.message, location: source.location(ofOffset: error.offset))
        }
    }

    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONDocument {
        try parse(Array(text.utf8))
    }
}

/// A syntax error before its offset is turned into a line and column.
struct PendingError: Error {
    var message: String
    var offset: Int
}

struct PendingDuplicate {
    var pointer: JSONPointer
    var offset: Int
    var firstOffset: Int
}

/// The parsing state over one buffer. Recursive descent, bounded by `maxDepth`.
struct ParserCore {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    let tracksLocations: Bool
    var position = 0
    /// The path to the value being parsed, kept only when tracking locations (for duplicate-key pointers).
    var path: [String] = []
    var duplicates: [PendingDuplicate] = []
    /// Reused by ``parseString()`` for each string's bytes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, tracksLocations: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.tracksLocations = tracksLocations
    }

    mutating func parseDocument() throws(PendingError) -> (JSONValue, JSONSourceMap?, [PendingDuplicate]) {
        // A UTF-8 byte order mark is tolerated: editors on some systems write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        let (value, map) = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describeCurrent()) after the top-level value")
        }
        return (value, map, duplicates)
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(PendingError) -> (JSONValue, JSONSourceMap?) {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("expected a value, found end of input")
        }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            let string = try parseString()
            return (.string(string), tracksLocations ? .scalar(offset: start) : nil)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return (.bool(true), tracksLocations ? .scalar(offset: start) : nil)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return (.bool(false), tracksLocations ? .scalar(offset: start) : nil)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return (.null, tracksLocations ? .scalar(offset: start) : nil)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try parseNumber()
            return (.number(number), tracksLocations ? .scalar(offset: start) : nil)
        default:
            throw error("expected a value, found \(describeWord())")
        }
    }

    mutating func parseArray(depth: Int) throws(PendingError) -> (JSONValue, JSONSourceMap?) {
        let start = position
        try checkDepth(depth)
        position += 1
        var elements: [JSONValue] = []
        var maps: [JSONSourceMap] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return (.array(elements), tracksLocations ? .array(offset: start, elements: maps) : nil)
        }
        while true {
            if tracksLocations { path.append(String(elements.count)) }
            let (element, map) = try parseValue(depth: depth)
            if tracksLocations { path.removeLast() }
            elements.append(element)
            if let map { maps.append(map) }
            skipWhitespace()
            guard position < bytes.count else {
                throw error("expected ',' or ']' after an array element, found end of input")
            }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                    throw error("expected a value after ',', found ']' (trailing commas are not allowed)")
                }
            case UInt8(ascii: "]"):
                position += 1
                return (.array(elements), tracksLocations ? .array(offset: start, elements: maps) : nil)
            default:
                throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    mutating func parseObject(depth: Int) throws(PendingError) -> (JSONValue, JSONSourceMap?) {
        let start = position
        try checkDepth(depth)
        position += 1
        var object = JSONObject()
        var members: [JSONSourceMap.Member] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return (.object(object), tracksLocations ? .object(offset: start, members: members) : nil)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                let after = object.isEmpty ? "'{'" : "','"
                let trailing = position < bytes.count && bytes[position] == UInt8(ascii: "}") ? " (trailing commas are not allowed)" : ""
                throw error("expected a string key after \(after), found \(describeCurrent())\(trailing)")
            }
            let keyOffset = position
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key '\(MessageText.oneLine(key))', found \(describeCurrent())")
            }
            position += 1
            if tracksLocations { path.append(key) }
            let (value, map) = try parseValue(depth: depth)
            if tracksLocations { path.removeLast() }
            if let existing = object.position(of: key) {
                if tracksLocations {
                    duplicates.append(PendingDuplicate(
                        pointer: JSONPointer(tokens: path + [key]), offset: keyOffset, firstOffset: members[existing].keyOffset))
                    members[existing] = JSONSourceMap.Member(keyOffset: keyOffset, value: map ?? .scalar(offset: keyOffset))
                }
                object[key] = value
            } else {
                object[key] = value
                if let map { members.append(JSONSourceMap.Member(keyOffset: keyOffset, value: map)) }
            }
            skipWhitespace()
            guard position < bytes.count else {
                throw error("expected ',' or '}' after an object member, found end of input")
            }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "}"):
                position += 1
                return (.object(object), tracksLocations ? .object(offset: start, members: members) : nil)
            default:
                throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(PendingError) {
        let start = position
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count, bytes[position] == byte else {
                position = start
                throw error("expected a value, found \(describeWord())")
            }
            position += 1
        }
    }

    func checkDepth(_ depth: Int) throws(PendingError) {
        if depth > maxDepth {
            throw error("nesting is deeper than \(maxDepth) levels")
        }
    }

    // MARK: Helpers

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> PendingError {
        PendingError(message: message, offset: offset ?? position)
    }

    /// The current input for a message: `'x'`, `end of input`, `U+000B`, `'é' (U+00E9)` or `byte 0xFF`.
    func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte < 0x20 || byte == 0x7F {
            return "control character U+\(hex(UInt32(byte), width: 4))"
        }
        if byte < 0x80 { return "'\(Character(Unicode.Scalar(byte)))'" }
        if let (scalar, _) = UTF8Validation.decode(bytes, at: position) {
            return "'\(Character(scalar))' (U+\(hex(scalar.value, width: 4)))"
        }
        return "byte 0x\(hex(UInt32(byte), width: 2)), which is not valid UTF-8"
    }

    /// The bare word at the current position (for `tru`, `NaN`, `Infinity`), quoted.
    func describeWord() -> String {
        var end = position
        while end < bytes.count, end - position < 20, isWordByte(bytes[end]) {
            end += 1
        }
        guard end > position else { return describeCurrent() }
        return "'\(String(decoding: bytes[position..<end], as: UTF8.self))'"
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
    }
}

func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
