/// A string the grammar has read: its bytes in the document (most strings) or, when it held an
/// escape, decoded into the grammar's scratch buffer.
@usableFromInline
enum ScannedString {
    case inPlace(Range<Int>)
    case decoded

    @inlinable var isInPlace: Bool {
        if case .inPlace = self { return true }
        return false
    }
}

extension JSONGrammar {
    /// The bytes of a string just read, for the length of `body`.
    @inlinable func withBytes<Result>(of string: ScannedString, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch string {
        case .inPlace(let range): body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .decoded: scratch.withUnsafeBufferPointer(body)
        }
    }

    /// Reads a string starting at its opening quote. A string without escapes is left where it
    /// is; one with escapes is decoded into `scratch`.
    @usableFromInline mutating func scanString() throws(PendingError) -> ScannedString {
        let start = position
        position += 1
        var runStart = position
        var decoding = false
        while true {
            position = plainRunEnd(from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard decoding else { return .inPlace(runStart..<position - 1) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position - 1]))
                return .decoded
            }
            if byte == UInt8(ascii: "\\") {
                if !decoding {
                    scratch.removeAll(keepingCapacity: true)
                    decoding = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                let scalar = try parseEscape()
                UTF8.encode(scalar) { scratch.append($0) }
                runStart = position
                continue
            }
            try skipSpecialByte(byte)
        }
        throw error("unterminated string, expected '\"' before end of input", at: start)
    }

    /// Steps over a control character (an error) or a valid UTF-8 sequence (checked strictly).
    private mutating func skipSpecialByte(_ byte: UInt8) throws(PendingError) {
        if byte < 0x20 {
            throw error("control character U+\(hex(UInt32(byte), width: 4)) must be escaped in a string")
        }
        guard let (_, length) = UTF8Validation.decode(bytes, at: position) else {
            throw error("invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2)) in a string")
        }
        position += length
    }

    /// The offset of the first byte from `start` that a string cannot take as it is: a quote, a
    /// backslash, a control character or a non-ASCII byte (which is then checked as UTF-8).
    /// Eight bytes at a time: each test below sets a byte's high bit where the byte matches, and
    /// the lowest set bit is always a true match (borrows only run upward from one).
    @inline(__always)
    func plainRunEnd(from start: Int) -> Int {
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let matches = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word) | word
                let found = matches & highs
                if found != 0 { return index + found.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return index }
            index += 1
        }
        return index
    }

    /// Parses one escape sequence at a backslash: the character it stands for.
    private mutating func parseEscape() throws(PendingError) -> Unicode.Scalar {
        let escapeStart = position
        position += 1
        guard position < bytes.count else {
            throw error("unterminated escape sequence, found end of input", at: escapeStart)
        }
        let byte = bytes[position]
        position += 1
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""): simple = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): simple = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): simple = UInt8(ascii: "/")
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            position -= 1
            throw error(
                "invalid escape sequence '\\\(printable(byte))', expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                at: escapeStart)
        }
        if let simple { return Unicode.Scalar(simple) }
        let unit = try parseHex4(escapeStart: escapeStart)
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by an escaped low surrogate.
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw error(
                    "lone surrogate '\\u\(hex(UInt32(unit), width: 4))', expected a low surrogate '\\uDC00'...'\\uDFFF' to follow",
                    at: escapeStart)
            }
            let lowStart = position
            position += 2
            let low = try parseHex4(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw error(
                    "lone surrogate '\\u\(hex(UInt32(unit), width: 4))', followed by '\\u\(hex(UInt32(low), width: 4))' instead of a low surrogate",
                    at: escapeStart)
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw error("lone surrogate '\\u\(hex(UInt32(unit), width: 4))' without a high surrogate before it", at: escapeStart)
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw error("invalid escape sequence", at: escapeStart)
        }
        return scalar
    }

    private mutating func parseHex4(escapeStart: Int) throws(PendingError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else {
                throw error("incomplete escape sequence, expected 4 hexadecimal digits after '\\u'", at: escapeStart)
            }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("invalid escape sequence, expected 4 hexadecimal digits after '\\u', found \(describeCurrent())")
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    private func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "\\u{\(hex(UInt32(byte), width: 2))}"
    }
}
