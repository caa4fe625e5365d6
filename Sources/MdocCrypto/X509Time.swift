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

    /// The validation times `X509_cmp_time` can compare: it writes the time as an ASN1_TIME,
    /// which holds the years 0000 to 9999.
    static let comparableTimes: ClosedRange<time_t> = -62_167_219_200...253_402_300_799

    /// `time` in seconds since the epoch, when `X509_cmp_time` compares it: a UTCTime of 13
    /// characters or a GeneralizedTime of 15, digits then `Z`, that `ASN1_TIME_to_tm` reads (RFC
    /// 5280 section 4.1.2.5). `X509_cmp_time` then answers by the difference of the two times in
    /// days and seconds (`ASN1_TIME_diff`), which is the difference of these seconds.
    static func comparableSeconds(_ time: UnsafePointer<ASN1_TIME>) -> time_t? {
        let length = Int(ASN1_STRING_length(time))
        switch ASN1_STRING_type(time) {
        case V_ASN1_UTCTIME where length == 13, V_ASN1_GENERALIZEDTIME where length == 15: break
        default: return nil
        }
        guard let data = ASN1_STRING_get0_data(time),
            (0..<(length - 1)).allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[$0]) }),
            data[length - 1] == UInt8(ascii: "Z")
        else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            ERR_clear_error()
            return nil
        }
        // timegm answers -1 for a time it cannot express, and for the last second of 1969.
        let seconds = timegm(&parts)
        return seconds == -1 ? nil : seconds
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
