import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `full-date = #6.1004(tstr)`: a calendar day written `YYYY-MM-DD` (RFC 8943; RFC 3339
/// section 5.6), as ISO/IEC 18013-5 uses for birth_date, issue_date, expiry_date and the dates in
/// driving_privileges (7.2.1, Table 5).
public struct FullDate: CBORRepresentable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month.
    public let day: Int

    /// The day, or `nil` when it does not exist (month 13, February 30, ...) or the year is not
    /// four digits.
    public init?(year: Int, month: Int, day: Int) {
        guard CivilCalendar.isValid(year: year, month: month, day: day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` exactly (RFC 3339 `full-date`), or returns `nil`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = CivilCalendar.number(bytes, 0, 4),
            let month = CivilCalendar.number(bytes, 5, 2),
            let day = CivilCalendar.number(bytes, 8, 2)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC calendar day of `date`.
    public init(_ date: Date) {
        let seconds = TDate.clampedSeconds(date)
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let civil = CivilCalendar.civilDate(daysSinceEpoch: days)
        year = civil.year
        month = civil.month
        day = civil.day
    }

    /// ISO/IEC 18013-5 7.2.1: the content of tag 1004 must be a valid `full-date`.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let contentPath = path.appending(.tagContent(CBOR.Tag.fullDateString))
        let text = try cbor.tagContent(CBOR.Tag.fullDateString, at: path).text(at: contentPath)
        guard let value = FullDate(text) else {
            throw CBORError(.invalidValue, "\"\(text)\" is not a full-date (YYYY-MM-DD)", path: contentPath)
        }
        self = value
    }

    /// `1004("YYYY-MM-DD")`.
    public var cbor: CBOR {
        .tagged(CBOR.Tag.fullDateString, .textString(description))
    }

    /// Midnight UTC at the start of the day.
    public var date: Date {
        Date(timeIntervalSince1970: Double(CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)) * 86_400)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        "\(CivilCalendar.padded(year, 4))-\(CivilCalendar.padded(month, 2))-\(CivilCalendar.padded(day, 2))"
    }

    public static func < (lhs: FullDate, rhs: FullDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
