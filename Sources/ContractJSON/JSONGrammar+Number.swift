extension JSONGrammar {
    /// Parses a number per RFC 8259 and keeps it exact. Up to 18 significant digits (nearly every
    /// number in API data) are gathered into an integer while they are read, so no digit string is
    /// built; longer numbers take the general path.
    @usableFromInline mutating func parseNumber() throws(PendingError) -> JSONNumber {
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
        var magnitude: UInt64 = 0
        // Digits from the first non-zero one on; past 18 the general path takes over.
        var significantDigits = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("numbers must not have leading zeros, found '\(text(start, scanDigits(from: position)))'", at: start)
            }
        } else {
            accumulateDigits(into: &magnitude, counting: &significantDigits)
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
            accumulateDigits(into: &magnitude, counting: &significantDigits)
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
        let fractionDigits = fractionEnd - fractionStart
        if significantDigits <= 18 {
            if fractionDigits == 0, exponent == 0 {
                return JSONNumber(negative ? -Int64(magnitude) : Int64(magnitude))
            }
            return JSONNumber(negative: negative, magnitude: magnitude, exponent: exponent - fractionDigits)
        }
        var digits = Array(UnsafeBufferPointer(rebasing: bytes[integerStart..<integerEnd]))
        digits.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[fractionStart..<fractionEnd]))
        return JSONNumber(negative: negative, digits: digits, exponent: exponent - fractionDigits)
    }

    /// Reads a run of digits, adding the first 18 significant ones to `magnitude`.
    private mutating func accumulateDigits(into magnitude: inout UInt64, counting significantDigits: inout Int) {
        while position < bytes.count {
            let digit = bytes[position] &- UInt8(ascii: "0")
            guard digit < 10 else { return }
            if magnitude != 0 || digit != 0 {
                significantDigits += 1
                if significantDigits <= 18 { magnitude = magnitude &* 10 &+ UInt64(digit) }
            }
            position += 1
        }
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
