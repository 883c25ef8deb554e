import ContractJSON

/// Exact decimal checks for `multipleOf`, so `0.3` is a multiple of `0.1` (binary floating
/// point says it is not) and integers beyond 64 bits keep working.
enum NumberArithmetic {
    /// Whether `value` is an integer multiple of `divisor` (> 0), exactly.
    static func isMultiple(_ value: JSONNumber, of divisor: JSONNumber) -> Bool {
        if let v = value.int64Value, let d = divisor.int64Value, d != 0 {
            return v % d == 0
        }
        // Typical decimals (a price and 0.01) in 64-bit integers, aligned to the smaller exponent.
        if let v = value.scaled, let d = divisor.scaled, d.significand != 0,
            let a = align(v.significand, by: v.exponent - min(v.exponent, d.exponent)),
            let b = align(d.significand, by: d.exponent - min(v.exponent, d.exponent))
        {
            return a % b == 0
        }
        let (_, valueDigits, valueExponent) = value.decimalParts
        let (_, divisorDigits, divisorExponent) = divisor.decimalParts
        if valueDigits.isEmpty { return true }
        // Each without trailing zeros, a × 10^ea and b × 10^eb: when ea < eb the quotient is
        // a / (b × 10^(eb-ea)), and a whole one would make a end in 0. No multiple, exactly; the
        // floating-point fallback below took 1.0000000000000000001 for a multiple of 1, and any
        // value that underflows (1e-400) for a multiple of anything.
        if valueExponent + trailingZeros(valueDigits) < divisorExponent + trailingZeros(divisorDigits) { return false }
        // value = a × 10^ea, divisor = b × 10^eb. With e = min(ea, eb): a × 10^(ea-e) must be a multiple of b × 10^(eb-e).
        let common = min(valueExponent, divisorExponent)
        let divisorShift = divisorExponent - common
        guard divisorShift <= 18, let divisorMagnitude = UInt64(divisorDigits),
            case let (scaled, overflow) = divisorMagnitude.multipliedReportingOverflow(by: power10(divisorShift)), !overflow
        else {
            // A divisor too large for exact arithmetic: fall back to floating point.
            let quotient = value.doubleValue / divisor.doubleValue
            return quotient.isFinite && quotient == quotient.rounded()
        }
        // (a × 10^k) mod m, digit by digit, then times 10^k by fast exponentiation.
        var remainder: UInt64 = 0
        for digit in valueDigits.utf8 {
            remainder = mulMod(remainder, 10, scaled)
            remainder = addMod(remainder, UInt64(digit - UInt8(ascii: "0")) % scaled, scaled)
        }
        let shift = valueExponent - common
        remainder = mulMod(remainder, powMod(10, shift, scaled), scaled)
        return remainder == 0
    }

    static func align(_ value: Int64, by shift: Int) -> Int64? {
        guard shift <= 18 else { return nil }
        var result = value
        for _ in 0..<shift {
            let (next, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            result = next
        }
        return result
    }

    private static func power10(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    private static func powMod(_ base: UInt64, _ exponent: Int, _ modulus: UInt64) -> UInt64 {
        guard modulus > 1 else { return 0 }
        var result: UInt64 = 1
        var factor = base % modulus
        var exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result = mulMod(result, factor, modulus) }
            factor = mulMod(factor, factor, modulus)
            exponent >>= 1
        }
        return result
    }

    /// (a × b) mod m for a, b < m, through the 128-bit product (UInt128 needs macOS 15).
    private static func mulMod(_ a: UInt64, _ b: UInt64, _ modulus: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return modulus.dividingFullWidth((high: product.high % modulus, low: product.low)).remainder
    }

    /// (a + b) mod m for a, b < m, without overflow.
    private static func addMod(_ a: UInt64, _ b: UInt64, _ modulus: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow || sum >= modulus ? sum &- modulus : sum
    }
}

/// How many zeros end a string of digits.
private func trailingZeros(_ digits: String) -> Int {
    var count = 0
    for digit in digits.utf8.reversed() {
        guard digit == UInt8(ascii: "0") else { break }
        count += 1
    }
    return count
}
