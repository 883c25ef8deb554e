extension ParserCore {
    /// Parses a string starting at the opening quote. Decoded into a scratch buffer kept across
    /// strings, so a document allocates the buffer once, not per string.
    mutating func parseString() throws(PendingError) -> String {
        var buffer = scratch
        scratch = []  // moved out and back, so the buffer stays uniquely referenced
        defer { scratch = buffer }
        buffer.removeAll(keepingCapacity: true)
        try parseString(appendingTo: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Parses a string starting at the opening quote and appends its UTF-8 bytes to `output`
    /// (the tape's byte buffer): no `String` is created.
    mutating func parseString(appendingTo output: inout [UInt8]) throws(PendingError) {
        let start = position
        position += 1
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                return
            case UInt8(ascii: "\\"):
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                try parseEscape(into: &output)
                runStart = position
            case 0x00..<0x20:
                throw error("control character U+\(hex(UInt32(byte), width: 4)) must be escaped in a string")
            case 0x20..<0x80:
                position += 1
            default:
                guard let (_, length) = UTF8Validation.decode(bytes, at: position) else {
                    throw error("invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2)) in a string")
                }
                position += length
            }
        }
        throw error("unterminated string, expected '\"' before end of input", at: start)
    }

    /// Parses one escape sequence at a backslash and appends its UTF-8 encoding.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(PendingError) {
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
        if let simple {
            buffer.append(simple)
            return
        }
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
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
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
