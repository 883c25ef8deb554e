/// RFC 3339 date, time and date-time (section 5.6), and ISO 8601 durations (RFC 3339 appendix A).
enum DateTimeFormats {
    static func isDate(_ value: String) -> Bool {
        withBytes(value, isDate)
    }

    static func isDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 10 && fullDate(bytes, 0)
    }

    static func isTime(_ value: String) -> Bool {
        withBytes(value) { fullTime($0, 0) }
    }

    static func isDateTime(_ value: String) -> Bool {
        withBytes(value, isDateTime)
    }

    static func isDateTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 20, fullDate(bytes, 0), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        return fullTime(bytes, 11)
    }

    /// The string's UTF-8 in place when it is stored contiguously (native strings are), else a copy.
    private static func withBytes(_ value: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        if let result = value.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(value.utf8).withUnsafeBufferPointer(body)
    }

    /// `YYYY-MM-DD` with a real day of the month (leap years included).
    private static func fullDate(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        guard offset + 10 <= bytes.count, bytes[offset + 4] == UInt8(ascii: "-"), bytes[offset + 7] == UInt8(ascii: "-"),
            let year = ASCII.number(bytes, offset, 4), let month = ASCII.number(bytes, offset + 5, 2),
            let day = ASCII.number(bytes, offset + 8, 2), (1...12).contains(month)
        else { return false }
        return day >= 1 && day <= daysIn(month: month, year: year)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `HH:MM:SS[.frac](Z|±HH:MM)` from `offset` to the end. A leap second (:60) is valid only
    /// where it falls at 23:59:60 UTC once the offset is applied.
    private static func fullTime(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        guard offset + 9 <= bytes.count, bytes[offset + 2] == UInt8(ascii: ":"), bytes[offset + 5] == UInt8(ascii: ":"),
            let hour = ASCII.number(bytes, offset, 2), let minute = ASCII.number(bytes, offset + 3, 2),
            let second = ASCII.number(bytes, offset + 6, 2), hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = offset + 8
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        guard index < bytes.count else { return false }
        var offsetMinutes = 0
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHour = ASCII.number(bytes, index + 1, 2), let offsetMinute = ASCII.number(bytes, index + 4, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return false
        }
        guard index == bytes.count else { return false }
        if second == 60 {
            // In UTC the leap second is 23:59:60.
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// `P[nY][nM][nW][nD][T[nH][nM][nS]]`: at least one part, `T` followed by a time part, weeks alone.
    static func isDuration(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else { return false }
        // RFC 3339 appendix A: units in order, without gaps (P1Y2D and PT1H2S are not durations),
        // weeks alone, and a `T` followed by at least one time unit.
        var index = 1
        var inTime = false
        var dateUnits: [Int] = []
        var timeUnits: [Int] = []
        let dateOrder: [UInt8] = Array("YMWD".utf8)
        let timeOrder: [UInt8] = Array("HMS".utf8)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
            let order = inTime ? timeOrder.firstIndex(of: bytes[index]) : dateOrder.firstIndex(of: bytes[index])
            guard let order else { return false }
            if inTime { timeUnits.append(order) } else { dateUnits.append(order) }
            index += 1
        }
        if inTime && timeUnits.isEmpty { return false }
        guard !dateUnits.isEmpty || !timeUnits.isEmpty else { return false }
        if dateUnits.contains(2) { return dateUnits == [2] && !inTime }
        let contiguous = { (units: [Int]) in zip(units, units.dropFirst()).allSatisfy { $1 == $0 + 1 || ($0 == 1 && $1 == 3) } }
        return contiguous(dateUnits) && contiguous(timeUnits)
    }
}

/// RFC 3339's `full-date` (`2027-01-31`, a day the calendar has), as `format: date` checks it, for
/// the files outside schemas that write days.
public enum FullDate {
    public static func isValid(_ text: String) -> Bool {
        DateTimeFormats.isDate(text)
    }
}
