import ContractSchema
import Foundation

/// `YYYY-MM-DD` days as baselines and ignore files write them (an entry's last day), in UTC.
public enum CalendarDay {
    /// A day the calendar has (no 30 February), read as JSON Schema's `format: date` reads it:
    /// an entry meant to hold until a day that does not exist would be read as some other day.
    public static func isValid(_ text: String) -> Bool {
        FullDate.isValid(text)
    }

    /// Today in UTC: ISO days compare as text, so `today > expires` is "expired".
    public static func today(_ now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
