/// A set of Unicode scalars: ranges, Unicode properties, and a negation. ASCII membership is a
/// 128-bit bitmap so that the common case costs two shifts.
struct RegexCharacterSet: Sendable {
    private(set) var ranges: [ClosedRange<UInt32>] = []
    private(set) var properties: [UnicodePropertyClass] = []
    /// Negated properties inside a class, such as `\P{L}` or `\D` within `[...]`.
    private(set) var negatedProperties: [UnicodePropertyClass] = []
    private(set) var nested: [RegexCharacterSet] = []
    var negated = false
    private var asciiLow: UInt64 = 0
    private var asciiHigh: UInt64 = 0
    private var asciiComplete = true

    init() {}

    init(ranges: [ClosedRange<UInt32>], negated: Bool = false) {
        for range in ranges { add(range) }
        self.negated = negated
    }

    mutating func add(_ range: ClosedRange<UInt32>) {
        ranges.append(range)
        var value = range.lowerBound
        while value <= min(range.upperBound, 127) {
            if value < 64 { asciiLow |= 1 << UInt64(value) } else { asciiHigh |= 1 << UInt64(value - 64) }
            value += 1
        }
    }

    mutating func add(_ property: UnicodePropertyClass, negated: Bool = false) {
        if negated { negatedProperties.append(property) } else { properties.append(property) }
        asciiComplete = false
    }

    /// Adds another set (a class escape such as `\d` or `\S` inside brackets).
    mutating func add(_ other: RegexCharacterSet) {
        if !other.negated && other.properties.isEmpty && other.negatedProperties.isEmpty && other.nested.isEmpty {
            for range in other.ranges { add(range) }
        } else {
            nested.append(other)
            asciiComplete = false
        }
    }

    /// The set as its 128-bit ASCII bitmap, when it holds ASCII characters only (not negated,
    /// no properties): then the bitmap is the whole set.
    var asciiOnlyBitmap: (low: UInt64, high: UInt64)? {
        guard !negated, asciiComplete, ranges.allSatisfy({ $0.upperBound < 128 }) else { return nil }
        return (asciiLow, asciiHigh)
    }

    func contains(_ scalar: UInt32) -> Bool {
        if scalar < 128 && asciiComplete {
            let bit = scalar < 64 ? (asciiLow >> UInt64(scalar)) & 1 : (asciiHigh >> UInt64(scalar - 64)) & 1
            return (bit == 1) != negated
        }
        return containsSlow(scalar) != negated
    }

    private func containsSlow(_ scalar: UInt32) -> Bool {
        if scalar < 128 {
            let bit = scalar < 64 ? (asciiLow >> UInt64(scalar)) & 1 : (asciiHigh >> UInt64(scalar - 64)) & 1
            if bit == 1 { return true }
        } else if ranges.contains(where: { $0.contains(scalar) }) {
            return true
        }
        guard let unicodeScalar = Unicode.Scalar(scalar) else { return false }
        if properties.contains(where: { $0.contains(unicodeScalar) }) { return true }
        if negatedProperties.contains(where: { !$0.contains(unicodeScalar) }) { return true }
        return nested.contains { $0.contains(scalar) }
    }

    // MARK: The class escapes of ECMA-262 (ASCII `\d` and `\w`, Unicode `\s`).

    static let digits = RegexCharacterSet(ranges: [48...57])
    static let wordCharacters = RegexCharacterSet(ranges: [48...57, 65...90, 95...95, 97...122])
    /// WhiteSpace and LineTerminator: tab, VT, FF, space, NBSP, ZWNBSP, the Zs category, LF, CR, LS, PS.
    static let whitespace = RegexCharacterSet(ranges: [
        9...13, 32...32, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F,
        0x3000...0x3000, 0xFEFF...0xFEFF,
    ])
    /// What `.` matches: everything but line terminators.
    static let notLineTerminator = RegexCharacterSet(ranges: [10...10, 13...13, 0x2028...0x2029], negated: true)

    static func isWordCharacter(_ scalar: UInt32) -> Bool {
        wordCharacters.contains(scalar)
    }
}
