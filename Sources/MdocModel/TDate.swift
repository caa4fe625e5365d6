import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `tdate = #6.0(tstr)`: an RFC 3339 date-time (RFC 8949 section 3.4.1), as ISO/IEC 18013-5 uses
/// for the MSO ValidityInfo (9.1.2.4) and for data elements such as portrait_capture_date (7.2.1).
///
/// The received text is kept for display and re-encoding; ``date`` is its instant. Parsing accepts
/// any RFC 3339 date-time (fractional seconds, `Z` or a numeric offset); values this toolkit writes
/// use whole seconds and `Z`, as 9.1.2.4 requires.
public struct TDate: CBORRepresentable, Hashable, CustomStringConvertible {
    /// The text as received, or as written by ``init(_:)``.
    public let text: String
    /// The instant the text denotes.
    public let date: Date

    /// The instant `date`, truncated to whole seconds, written `YYYY-MM-DDThh:mm:ssZ`.
    public init(_ date: Date) {
        let seconds = Self.clampedSeconds(date)
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let civil = CivilCalendar.civilDate(daysSinceEpoch: days)
        let p = CivilCalendar.padded
        text = "\(p(civil.year, 4))-\(p(civil.month, 2))-\(p(civil.day, 2))T"
            + "\(p(secondOfDay / 3600, 2)):\(p(secondOfDay / 60 % 60, 2)):\(p(secondOfDay % 60, 2))Z"
        self.date = Date(timeIntervalSince1970: Double(seconds))
    }

    /// Parses an RFC 3339 `date-time` (section 5.6); the error names what is wrong and `path`.
    public init(text: String, at path: CBORPath = .root) throws(CBORError) {
        guard let interval = Self.parse(Array(text.utf8)) else {
            throw CBORError(.invalidValue, "\"\(text)\" is not an RFC 3339 date-time", path: path)
        }
        self.text = text
        self.date = Date(timeIntervalSince1970: interval)
    }

    /// ISO/IEC 18013-5 9.1.2.4: `#6.0(tstr)`.
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let contentPath = path.appending(.tagContent(CBOR.Tag.dateTimeString))
        let text = try cbor.tagContent(CBOR.Tag.dateTimeString, at: path).text(at: contentPath)
        try self.init(text: text, at: contentPath)
    }

    /// `0("...")` with the kept text.
    public var cbor: CBOR {
        .tagged(CBOR.Tag.dateTimeString, .textString(text))
    }

    public var description: String { text }

    /// Whole seconds since 1970 of `date`, held within years 1...9999 so every value converts.
    static func clampedSeconds(_ date: Date) -> Int {
        let lowest = Double(CivilCalendar.daysSinceEpoch(year: CivilCalendar.years.lowerBound, month: 1, day: 1)) * 86_400
        let highest = Double(CivilCalendar.daysSinceEpoch(year: CivilCalendar.years.upperBound, month: 12, day: 31)) * 86_400 + 86_399
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return interval > 0 ? Int(highest) : Int(lowest) }
        return Int(min(max(interval, lowest), highest).rounded(.down))
    }

    /// Seconds since 1970 of an RFC 3339 date-time, or `nil`.
    private static func parse(_ s: [UInt8]) -> Double? {
        let n = CivilCalendar.number
        guard s.count >= 20, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"),
            s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: "t"),
            s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"),
            let year = n(s, 0, 4), let month = n(s, 5, 2), let day = n(s, 8, 2),
            let hour = n(s, 11, 2), let minute = n(s, 14, 2), let second = n(s, 17, 2),
            CivilCalendar.isValid(year: year, month: month, day: day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if s[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < s.count, let digit = n(s, index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < s.count else { return nil }
        var offsetSeconds = 0
        switch s[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 <= s.count, s[index + 3] == UInt8(ascii: ":"),
                let offsetHour = n(s, index + 1, 2), let offsetMinute = n(s, index + 4, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return nil }
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (s[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        default:
            return nil
        }
        guard index == s.count else { return nil }
        let days = CivilCalendar.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Double(seconds) + fraction
    }
}

extension TDate {
    /// A `tdate` (tag 0 around an RFC 3339 text string, nested `depth` containers deep) read
    /// straight from the bytes: the date ``init(cbor:at:)`` gives for it, or `nil` for any other
    /// form or any error (see `CBORHeadReader`).
    static func read(_ reader: inout CBORHeadReader, depth: Int) -> TDate? {
        guard reader.readTag(CBOR.Tag.dateTimeString, depth: depth), let text = reader.readText() else { return nil }
        return try? TDate(text: text)
    }
}
