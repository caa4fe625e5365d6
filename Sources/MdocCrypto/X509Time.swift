#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Conversions between the proleptic Gregorian UTC calendar of X.509 times (RFC 5280 section
/// 4.1.2.5) and seconds since 1970-01-01T00:00:00Z, in integer arithmetic (days from civil,
/// after H. Hinnant's well-known algorithm), so that reading and printing certificate times needs
/// no time zone database and no formatter.
enum X509Time {
    /// Seconds since the Unix epoch of a UTC calendar time.
    static func secondsSinceEpoch(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era) * 146_097 + Int64(dayOfEra) - 719_468
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// `date` as RFC 3339 UTC text with whole seconds, e.g. `2021-10-01T00:00:00Z`.
    static func rfc3339(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e15 else { return "\(date)" }
        let total = Int64(interval.rounded(.down))
        var days = total / 86_400
        var secondOfDay = total % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
