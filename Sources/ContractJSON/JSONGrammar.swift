/// The one JSON grammar (RFC 8259) and its messages, for every form a document is parsed into:
/// recursive descent over one buffer, bounded by `maxDepth`, reporting what it reads to a
/// ``JSONSink``. Generic over the sink, so each parser gets its own specialised copy.
@usableFromInline
struct JSONGrammar {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let maxDepth: Int
    @usableFromInline var position = 0
    /// The decoded bytes of the last string that held an escape (``scanString()``); kept across
    /// strings, so a document allocates it once.
    @usableFromInline var scratch: [UInt8] = []

    @usableFromInline init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    @inlinable mutating func parseDocument<Sink: JSONSink>(into sink: inout Sink) throws(PendingError) {
        // A UTF-8 byte order mark is tolerated: editors on some systems write one.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        try parseValue(depth: 0, into: &sink)
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describeCurrent()) after the top-level value")
        }
    }

    // MARK: Values

    @inlinable mutating func parseValue<Sink: JSONSink>(depth: Int, into sink: inout Sink) throws(PendingError) {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("expected a value, found end of input")
        }
        let start = position
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let string = try scanString()
            withBytes(of: string) { sink.string($0, at: start, inPlace: string.isInPlace) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            sink.number(try parseNumber(), at: start)
        case UInt8(ascii: "{"):
            if sink.mayReuse(), reused(depth: depth, into: &sink) { return }
            try parseObject(depth: depth + 1, into: &sink)
        case UInt8(ascii: "["):
            if sink.mayReuse(), reused(depth: depth, into: &sink) { return }
            try parseArray(depth: depth + 1, into: &sink)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            sink.bool(true, at: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            sink.bool(false, at: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            sink.null(at: start)
        default:
            throw error("expected a value, found \(describeWord())")
        }
    }

    @inlinable mutating func parseArray<Sink: JSONSink>(depth: Int, into sink: inout Sink) throws(PendingError) {
        let start = position
        let mark = sink.beginArray(at: start)
        if try enter(depth: depth, closingWith: UInt8(ascii: "]")) {
            sink.endArray(mark, count: 0, text: text(from: start))
            return
        }
        var count = 0
        while true {
            try parseValue(depth: depth, into: &sink)
            count += 1
            if try next(closingWith: UInt8(ascii: "]"), after: "an array element") {
                sink.endArray(mark, count: count, text: text(from: start))
                return
            }
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
                throw error("expected a value after ',', found ']' (trailing commas are not allowed)")
            }
        }
    }

    @inlinable mutating func parseObject<Sink: JSONSink>(depth: Int, into sink: inout Sink) throws(PendingError) {
        let start = position
        let mark = sink.beginObject(at: start)
        if try enter(depth: depth, closingWith: UInt8(ascii: "}")) {
            sink.endObject(mark, count: 0, text: text(from: start))
            return
        }
        var count = 0
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                let after = count == 0 ? "'{'" : "','"
                let trailing = position < bytes.count && bytes[position] == UInt8(ascii: "}") ? " (trailing commas are not allowed)" : ""
                throw error("expected a string key after \(after), found \(describeCurrent())\(trailing)")
            }
            let keyOffset = position
            let key = try scanString()
            withBytes(of: key) { sink.key($0, at: keyOffset, inPlace: key.isInPlace) }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                // The key's bytes are still there: no string was read since.
                let text = withBytes(of: key) { String(decoding: $0, as: UTF8.self) }
                throw error("expected ':' after the key '\(MessageText.oneLine(text))', found \(describeCurrent())")
            }
            position += 1
            try parseValue(depth: depth, into: &sink)
            count += 1
            if try next(closingWith: UInt8(ascii: "}"), after: "an object member") {
                sink.endObject(mark, count: count, text: text(from: start))
                return
            }
        }
    }

    /// The document's bytes from `start` to the current position.
    @inlinable @inline(__always)
    func text(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<position])
    }

    /// Steps into the array or object whose bracket is at `position`; true when it is empty (and
    /// then already closed).
    @inlinable @inline(__always)
    mutating func enter(depth: Int, closingWith close: UInt8) throws(PendingError) -> Bool {
        try checkDepth(depth)
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == close else { return false }
        position += 1
        return true
    }

    /// After an element or member: true at the closing bracket, false after a comma (both consumed).
    @inlinable @inline(__always)
    mutating func next(closingWith close: UInt8, after what: String) throws(PendingError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what), found end of input")
        }
        switch bytes[position] {
        case UInt8(ascii: ","):
            position += 1
            return false
        case close:
            position += 1
            return true
        default:
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))' after \(what), found \(describeCurrent())")
        }
    }

    @usableFromInline mutating func expectLiteral(_ literal: StaticString) throws(PendingError) {
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

    @inlinable func checkDepth(_ depth: Int) throws(PendingError) {
        if depth > maxDepth {
            throw error("nesting is deeper than \(maxDepth) levels")
        }
    }

    // MARK: Helpers

    @inlinable @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            let byte = bytes[position]
            // Most bytes after a token are not white space at all (minified documents).
            guard byte <= 0x20, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    @usableFromInline func error(_ message: String, at offset: Int? = nil) -> PendingError {
        PendingError(message: message, offset: offset ?? position)
    }

    /// The current input for a message: `'x'`, `end of input`, `U+000B`, `'é' (U+00E9)` or `byte 0xFF`.
    @usableFromInline func describeCurrent() -> String {
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
    @usableFromInline func describeWord() -> String {
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

/// A syntax error before its offset is turned into a line and column.
@usableFromInline
struct PendingError: Error {
    @usableFromInline var message: String
    @usableFromInline var offset: Int
}

func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
