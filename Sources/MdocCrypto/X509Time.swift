import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Conversions between the UTC calendar times of X.509 (RFC 5280 section 4.1.2.5) and `Date`,
/// through the C library's UTC functions (`timegm`, `gmtime_r`), which need no time zone database.
enum X509Time {
    /// The `Date` of a UTC calendar time as OpenSSL's `ASN1_TIME_to_tm` fills it in.
    static func date(_ calendar: tm) -> Date {
        var utc = calendar
        return Date(timeIntervalSince1970: TimeInterval(timegm(&utc)))
    }

    /// `date` as RFC 3339 UTC text with whole seconds, e.g. `2021-10-01T00:00:00Z`.
    static func rfc3339(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, abs(interval) < 1e15 else { return "\(date)" }
        var seconds = time_t(interval.rounded(.down))
        var calendar = tm()
        guard gmtime_r(&seconds, &calendar) != nil else { return "\(date)" }
        return "\(pad(Int(calendar.tm_year) + 1900, 4))-\(pad(Int(calendar.tm_mon) + 1, 2))-\(pad(Int(calendar.tm_mday), 2))T"
            + "\(pad(Int(calendar.tm_hour), 2)):\(pad(Int(calendar.tm_min), 2)):\(pad(Int(calendar.tm_sec), 2))Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
