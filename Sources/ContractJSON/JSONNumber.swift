/// An exact JSON number: an integer of any size or a decimal, never rounded to binary.
///
/// The value is kept as sign × digits × 10^exponent, normalised so that equal values have
/// equal representations: `1`, `1.0` and `10e-1` are the same integer, `0.1` stays `0.1`.
public struct JSONNumber: Sendable, Hashable {
    /// Each value has exactly one of these forms (the synthesised `==` and hash rely on it).
    enum Storage: Sendable, Hashable {
        /// Every integer that fits in 64 bits, zero included.
        case int(Int64)
        /// Any other value whose significant digits fit in 18: `significand` × 10^`exponent`, the
        /// significand not a multiple of ten. Held inline: prices and ratios are common in API
        /// data, and a box for each cost parsing an allocation per number.
        case scaled(significand: Int64, exponent: Int32)
        /// Anything else. `digits` has no leading or trailing zeros, is not empty and has more than
        /// 18 digits or an exponent beyond 32 bits. Boxed, so a number (and every `JSONValue`)
        /// stays small: such numbers are rare, values many.
        indirect case decimal(negative: Bool, digits: String, exponent: Int)
    }

    /// Exponents are saturated here so that arithmetic on them can never overflow.
    static let exponentLimit = 1 << 60

    let storage: Storage

    public init(_ value: Int64) {
        storage = .int(value)
    }

    public init(_ value: Int) {
        storage = .int(Int64(value))
    }

    /// Creates a number from sign, significant digits (ASCII, any leading or trailing zeros) and a power of ten.
    init(negative: Bool, digits: some Collection<UInt8>, exponent: Int) {
        var digits = Array(digits.drop { $0 == UInt8(ascii: "0") })
        var exponent = exponent
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        guard !digits.isEmpty else {
            storage = .int(0)
            return
        }
        exponent = max(-Self.exponentLimit, min(Self.exponentLimit, exponent))
        if exponent >= 0, digits.count + exponent <= 19, let int = Self.int64(digits, exponent, negative) {
            storage = .int(int)
        } else if digits.count <= 18, let scaledExponent = Int32(exactly: exponent), let magnitude = Self.int64(digits, 0, false) {
            storage = .scaled(significand: negative ? -magnitude : magnitude, exponent: scaledExponent)
        } else {
            storage = .decimal(negative: negative, digits: String(decoding: digits, as: UTF8.self), exponent: exponent)
        }
    }

    /// The number `magnitude` × 10^`exponent`, negated when `negative`: the parser's fast path,
    /// for literals with at most 18 significant digits (`magnitude` < 10^18), so no digit string.
    init(negative: Bool, magnitude: UInt64, exponent: Int) {
        var magnitude = magnitude
        var exponent = exponent
        guard magnitude != 0 else {
            storage = .int(0)
            return
        }
        while magnitude % 10 == 0 {
            magnitude /= 10
            exponent += 1
        }
        exponent = max(-Self.exponentLimit, min(Self.exponentLimit, exponent))
        let significand = negative ? -Int64(magnitude) : Int64(magnitude)
        if exponent >= 0, exponent <= 18, case let (int, false) = significand.multipliedReportingOverflow(by: Self.int64PowersOfTen[exponent]) {
            storage = .int(int)
        } else if let scaledExponent = Int32(exactly: exponent) {
            storage = .scaled(significand: significand, exponent: scaledExponent)
        } else {
            storage = .decimal(negative: negative, digits: String(magnitude), exponent: exponent)
        }
    }

    /// 10^0 through 10^18, every power of ten an `Int64` holds.
    private static let int64PowersOfTen: [Int64] = (0...18).map { power in (0..<power).reduce(1) { result, _ in result * 10 } }

    /// 10^0 through 10^22, the powers of ten a `Double` holds exactly.
    static let powersOfTen: [Double] = (0...22).map { Double("1e\($0)") ?? 1 }

    private static func int64(_ digits: [UInt8], _ exponent: Int, _ negative: Bool) -> Int64? {
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        for _ in 0..<exponent {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            magnitude = times10
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// Parses a complete JSON number literal such as `-12.5e3`; nil when the text is not one.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
            let last = bytes.last, last >= UInt8(ascii: "0") && last <= UInt8(ascii: "9"),
            case .number(let number)? = try? JSONParser().parse(bytes).value
        else { return nil }
        self = number
    }

    /// True for integral values, `1.0` and `1e3` included.
    public var isInteger: Bool {
        switch storage {
        case .int: true
        case .scaled(_, let exponent): exponent >= 0
        case .decimal(_, _, let exponent): exponent >= 0
        }
    }

    /// The value as a 64-bit integer, when it is one.
    public var int64Value: Int64? {
        if case .int(let value) = storage { return value }
        return nil
    }

    /// The value as a `Int`, when it is an integer in range.
    public var intValue: Int? {
        int64Value.flatMap { Int(exactly: $0) }
    }

    /// The nearest `Double` (infinity when out of range).
    public var doubleValue: Double {
        switch storage {
        case .int(let value):
            return Double(value)
        case .scaled(let significand, let exponent):
            // Exact when both factors are exact doubles (Clinger's fast path); else as text.
            if significand.magnitude < 1 << 53, (-22...22).contains(exponent) {
                let power = Self.powersOfTen[Int(exponent.magnitude)]
                return exponent < 0 ? Double(significand) / power : Double(significand) * power
            }
            return Double("\(significand)e\(exponent)") ?? (significand < 0 ? -.infinity : .infinity)
        case .decimal(let negative, let digits, let exponent):
            return Double("\(negative ? "-" : "")\(digits)e\(exponent)") ?? (negative ? -.infinity : .infinity)
        }
    }

    public var isNegative: Bool {
        switch storage {
        case .int(let value): value < 0
        case .scaled(let significand, _): significand < 0
        case .decimal(let negative, _, _): negative
        }
    }

    public var isZero: Bool { storage == .int(0) }

    /// Sign, significant digits without leading or trailing zeros ("" for zero), and power of ten.
    public var decimalParts: (negative: Bool, digits: String, exponent: Int) {
        switch storage {
        case .int(0):
            return (false, "", 0)
        case .int(let value):
            var magnitude = value.magnitude
            var exponent = 0
            while magnitude % 10 == 0 {
                magnitude /= 10
                exponent += 1
            }
            return (value < 0, String(magnitude), exponent)
        case .scaled(let significand, let exponent):
            return (significand < 0, String(significand.magnitude), Int(exponent))
        case .decimal(let negative, let digits, let exponent):
            return (negative, digits, exponent)
        }
    }
}

extension JSONNumber: Comparable {
    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .int(let left) = lhs.storage, case .int(let right) = rhs.storage {
            return left < right
        }
        // Most decimals (prices, ratios) fit a 64-bit significand: compare them exactly without strings.
        if let left = lhs.scaled, let right = rhs.scaled, let order = compareScaled(left, right) {
            return order < 0
        }
        let left = lhs.decimalParts
        let right = rhs.decimalParts
        if left.negative != right.negative { return left.negative }
        let magnitudeOrder = compareMagnitudes(left.digits, left.exponent, right.digits, right.exponent)
        return left.negative ? magnitudeOrder > 0 : magnitudeOrder < 0
    }

    /// The value as significand × 10^exponent with a 64-bit significand, when it fits.
    public var scaled: (significand: Int64, exponent: Int)? {
        switch storage {
        case .int(let value):
            return (value, 0)
        case .scaled(let significand, let exponent):
            return (significand, Int(exponent))
        case .decimal(let negative, let digits, let exponent):
            guard digits.utf8.count <= 18 else { return nil }
            var significand: Int64 = 0
            for digit in digits.utf8 { significand = significand * 10 + Int64(digit - UInt8(ascii: "0")) }
            return (negative ? -significand : significand, exponent)
        }
    }

    /// Exact order (-1, 0, 1) of two scaled numbers; nil when aligning their exponents would overflow.
    public static func compareScaled(_ a: (significand: Int64, exponent: Int), _ b: (significand: Int64, exponent: Int)) -> Int? {
        var (x, y) = (a.significand, b.significand)
        var shift = a.exponent - b.exponent
        guard abs(shift) <= 18 else { return nil }
        while shift > 0 {
            let (next, overflow) = x.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            x = next
            shift -= 1
        }
        while shift < 0 {
            let (next, overflow) = y.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            y = next
            shift += 1
        }
        return x < y ? -1 : (x == y ? 0 : 1)
    }

    /// -1, 0 or 1 as |a| is less than, equal to or greater than |b|.
    private static func compareMagnitudes(_ aDigits: String, _ aExponent: Int, _ bDigits: String, _ bExponent: Int) -> Int {
        if aDigits.isEmpty || bDigits.isEmpty {
            return aDigits.isEmpty ? (bDigits.isEmpty ? 0 : -1) : 1
        }
        // The position of the decimal point relative to the first digit decides first.
        let aScale = aDigits.utf8.count + aExponent
        let bScale = bDigits.utf8.count + bExponent
        if aScale != bScale { return aScale < bScale ? -1 : 1 }
        var a = aDigits.utf8.makeIterator()
        var b = bDigits.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }
}

extension JSONNumber: CustomStringConvertible {
    /// The canonical text: plain notation for magnitudes from 1e-6 up to 1e21, exponent notation
    /// otherwise (the thresholds ECMAScript uses), with every significant digit kept.
    public var description: String {
        if case .int(let value) = storage { return String(value) }
        let (negative, digits, exponent) = decimalParts
        let sign = negative ? "-" : ""
        let k = digits.utf8.count
        let n = k + exponent  // the decimal point sits after n digits
        if k <= n && n <= 21 {
            return sign + digits + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: n)
            return sign + digits[..<split] + "." + digits[split...]
        }
        if -6 < n && n <= 0 {
            return sign + "0." + String(repeating: "0", count: -n) + digits
        }
        let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
        let power = n - 1
        return sign + mantissa + "e" + (power < 0 ? "-" : "+") + String(power.magnitude)
    }
}
