extension JSONParser {
    /// Parses straight into a ``JSONTape``: no ``JSONValue``, no source map, one growing buffer
    /// per kind instead of an allocation per value. The same grammar, limits and error messages
    /// as ``parse(_:)-([UInt8])``; for bodies that are validated and then dropped.
    ///
    /// Unlike ``JSONValue``, which keeps the last of duplicate keys, the tape keeps every member
    /// as it was sent.
    public func parseTape(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONTape {
        let result: Result<JSONTape, PendingError> = bytes.withUnsafeBufferPointer { buffer in
            var core = ParserCore(bytes: buffer, maxDepth: maxDepth, tracksLocations: false)
            var tape = JSONTape()
            tape.bytes.reserveCapacity(buffer.count)
            do throws(PendingError) {
                try core.parseTapeDocument(into: &tape)
                return .success(tape)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let tape):
            return tape
        case .failure(let error):
            throw JSONSyntaxError(message: error.message, location: SourceText(bytes, indexLines: true).location(ofOffset: error.offset))
        }
    }
}

extension ParserCore {
    mutating func parseTapeDocument(into tape: inout JSONTape) throws(PendingError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            position = 3
        }
        try parseTapeValue(depth: 0, into: &tape)
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describeCurrent()) after the top-level value")
        }
    }

    private mutating func parseTapeValue(depth: Int, into tape: inout JSONTape) throws(PendingError) {
        skipWhitespace()
        guard position < bytes.count else {
            throw error("expected a value, found end of input")
        }
        let index = tape.entries.count
        switch bytes[position] {
        case UInt8(ascii: "{"):
            try parseTapeObject(depth: depth + 1, into: &tape)
        case UInt8(ascii: "["):
            try parseTapeArray(depth: depth + 1, into: &tape)
        case UInt8(ascii: "\""):
            try parseTapeString(into: &tape)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            tape.entries.append(JSONTape.Entry(kind: .bool, flag: true, count: 0, end: Int32(index + 1), payload: 0))
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            tape.entries.append(JSONTape.Entry(kind: .bool, flag: false, count: 0, end: Int32(index + 1), payload: 0))
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            tape.entries.append(JSONTape.Entry(kind: .null, flag: false, count: 0, end: Int32(index + 1), payload: 0))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            tape.appendNumber(try parseNumber())
        default:
            throw error("expected a value, found \(describeWord())")
        }
    }

    private mutating func parseTapeString(into tape: inout JSONTape) throws(PendingError) {
        let offset = tape.bytes.count
        try parseString(appendingTo: &tape.bytes)
        tape.entries.append(JSONTape.Entry(
            kind: .string, flag: false, count: Int32(tape.bytes.count - offset), end: Int32(tape.entries.count + 1), payload: Int32(offset)))
    }

    private mutating func parseTapeArray(depth: Int, into tape: inout JSONTape) throws(PendingError) {
        try checkDepth(depth)
        position += 1
        let index = tape.entries.count
        tape.entries.append(JSONTape.Entry(kind: .array, flag: false, count: 0, end: 0, payload: 0))
        var count: Int32 = 0
        defer {
            tape.entries[index].count = count
            tape.entries[index].end = Int32(tape.entries.count)
        }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            try parseTapeValue(depth: depth, into: &tape)
            count += 1
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
                return
            default:
                throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseTapeObject(depth: Int, into tape: inout JSONTape) throws(PendingError) {
        try checkDepth(depth)
        position += 1
        let index = tape.entries.count
        tape.entries.append(JSONTape.Entry(kind: .object, flag: false, count: 0, end: 0, payload: 0))
        var count: Int32 = 0
        defer {
            tape.entries[index].count = count
            tape.entries[index].end = Int32(tape.entries.count)
        }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                let after = count == 0 ? "'{'" : "','"
                let trailing = position < bytes.count && bytes[position] == UInt8(ascii: "}") ? " (trailing commas are not allowed)" : ""
                throw error("expected a string key after \(after), found \(describeCurrent())\(trailing)")
            }
            let keyEntry = tape.entries.count
            try parseTapeString(into: &tape)
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key '\(MessageText.oneLine(tape.string(at: keyEntry)))', found \(describeCurrent())")
            }
            position += 1
            try parseTapeValue(depth: depth, into: &tape)
            count += 1
            skipWhitespace()
            guard position < bytes.count else {
                throw error("expected ',' or '}' after an object member, found end of input")
            }
            switch bytes[position] {
            case UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default:
                throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
            }
        }
    }
}
