extension ParserCore {
    /// Parses a number per RFC 8259 and keeps it exact.
    mutating func parseNumber() throws(PendingError) -> JSONNumber {
        let start = position
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        let integerStart = position
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error("expected a digit after '-', found \(describeCurrent())")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("numbers must not have leading zeros, found '\(text(start, scanDigits(from: position)))'", at: start)
            }
        } else {
            position = scanDigits(from: position)
        }
        let integerEnd = position
        var fractionStart = position
        var fractionEnd = position
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("expected a digit after the decimal point, found \(describeCurrent())")
            }
            fractionStart = position
            position = scanDigits(from: position)
            fractionEnd = position
        }
        var exponent = 0
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("expected a digit in the exponent, found \(describeCurrent())")
            }
            while position < bytes.count, isDigit(bytes[position]) {
                // Saturate: an exponent this large means infinity or zero as a double anyway.
                if exponent < JSONNumber.exponentLimit / 10 {
                    exponent = exponent * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                }
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // Fast path: a plain integer of up to 18 digits fits in Int64.
        if fractionStart == fractionEnd, exponent == 0, integerEnd - integerStart <= 18 {
            var value: Int64 = 0
            for index in integerStart..<integerEnd {
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            }
            return JSONNumber(negative ? -value : value)
        }
        var digits = Array(UnsafeBufferPointer(rebasing: bytes[integerStart..<integerEnd]))
        digits.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[fractionStart..<fractionEnd]))
        return JSONNumber(negative: negative, digits: digits, exponent: exponent - (fractionEnd - fractionStart))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private func scanDigits(from offset: Int) -> Int {
        var end = offset
        while end < bytes.count, isDigit(bytes[end]) { end += 1 }
        return end
    }

    private func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + 40)]), as: UTF8.self)
    }
}
