/// A moment an RFC 3339 date-time names, for ordering two of them (a flow's `updated_at` later
/// than the `created_at` it captured): the seconds since 1970 in UTC, its offset applied, and
/// the fraction of a second as written. A leap second (`23:59:60`) orders after every moment of
/// the second before it and before the next minute: it is that `:59`, marked as the leap.
public struct RFC3339Instant: Sendable, Hashable, Comparable {
    public let seconds: Int
    /// The leap second that follows ``seconds`` (written `:60`): later than any fraction of it.
    public let leap: Bool
    /// Digits after the decimal point, without trailing zeros (`"5"` for `.500`).
    public let fraction: String

    /// Nil unless `text` is an RFC 3339 date-time (`format: date-time`).
    public init?(_ text: String) {
        guard DateTimeFormats.isDateTime(text) else { return nil }
        let bytes = Array(text.utf8)
        func number(_ offset: Int, _ length: Int) -> Int {
            bytes[offset..<(offset + length)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let (year, month, day) = (number(0, 4), number(5, 2), number(8, 2))
        let (hour, minute, second) = (number(11, 2), number(14, 2), number(17, 2))
        var index = 19
        var digits: [UInt8] = []
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                digits.append(bytes[index])
                index += 1
            }
        }
        var offset = 0
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            offset = (number(index + 1, 2) * 60 + number(index + 4, 2)) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        // Counted as 60 the leap second would be the next minute's first, equal to it (or,
        // with a fraction, later).
        leap = second == 60
        seconds = Self.days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + min(second, 59) - offset
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        fraction = String(decoding: digits, as: UTF8.self)
    }

    public static func < (lhs: RFC3339Instant, rhs: RFC3339Instant) -> Bool {
        if lhs.seconds != rhs.seconds { return lhs.seconds < rhs.seconds }
        if lhs.leap != rhs.leap { return rhs.leap }
        // Digit strings without trailing zeros order as fractions do when compared place by place.
        return lhs.fraction.utf8.lexicographicallyPrecedes(rhs.fraction.utf8)
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    /// days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
