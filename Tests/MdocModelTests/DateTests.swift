import Foundation
import MdocCBOR
import MdocModel
import Testing

@Suite("tdate and full-date (RFC 8949 3.4.1, RFC 8943; ISO/IEC 18013-5 7.2.1, 9.1.2.4)")
struct DateTests {
    @Test("tdate parses RFC 3339 forms and keeps the text")
    func tdateParsing() throws {
        let cases: [(String, Double)] = [
            ("2020-10-01T13:30:02Z", 1_601_559_002),
            ("2020-10-01t13:30:02z", 1_601_559_002),
            ("2020-10-01T15:30:02+02:00", 1_601_559_002),
            ("2020-10-01T13:00:02-00:30", 1_601_559_002),
            ("2020-10-01T13:30:02.5Z", 1_601_559_002.5),
            ("1970-01-01T00:00:00Z", 0),
            ("1969-12-31T23:59:59Z", -1),
            ("2024-02-29T00:00:00Z", 1_709_164_800),
            ("0001-01-01T00:00:00Z", -62_135_596_800),
        ]
        for (text, seconds) in cases {
            let date = try TDate(text: text)
            #expect(date.text == text)
            #expect(date.date.timeIntervalSince1970 == seconds, "\(text)")
            #expect(date.cbor == .tagged(0, .textString(text)))
            #expect(try TDate(cbor: date.cbor, at: .root) == date)
        }
    }

    @Test("tdate rejects what is not an RFC 3339 date-time")
    func tdateErrors() {
        let bad = [
            "", "2020-10-01", "2020-10-01T13:30:02", "2020-10-01 13:30:02Z", "2020-13-01T13:30:02Z",
            "2021-02-29T00:00:00Z", "2020-10-01T24:00:00Z", "2020-10-01T13:60:00Z", "2020-10-01T13:30:61Z",
            "2020-10-01T13:30:02.Z", "2020-10-01T13:30:02+0200", "2020-10-01T13:30:02+24:00", "2020-10-01T13:30:02Zx",
            "20a0-10-01T13:30:02Z", "0000-01-01T00:00:00Z",
        ]
        for text in bad {
            expectCBORError(.invalidValue, at: "top level") { () throws(CBORError) in
                _ = try TDate(text: text)
            }
        }
        expectCBORError(.unexpectedType, at: "top level") { () throws(CBORError) in
            _ = try TDate(cbor: "2020-10-01T13:30:02Z", at: .root)
        }
        expectCBORError(.unexpectedType, at: "<tag 0>") { () throws(CBORError) in
            _ = try TDate(cbor: .tagged(0, 5), at: .root)
        }
    }

    @Test("a Date is written with whole seconds and Z")
    func tdateFromDate() throws {
        #expect(TDate(Date(timeIntervalSince1970: 1_601_559_002.9)).text == "2020-10-01T13:30:02Z")
        #expect(TDate(Date(timeIntervalSince1970: -1)).text == "1969-12-31T23:59:59Z")
        #expect(TDate(Date(timeIntervalSince1970: 951_782_400)).text == "2000-02-29T00:00:00Z")
        #expect(TDate(Date(timeIntervalSince1970: 1e15)).text == "9999-12-31T23:59:59Z")
        #expect(TDate(Date(timeIntervalSince1970: -1e15)).text == "0001-01-01T00:00:00Z")
        #expect(TDate(Date(timeIntervalSince1970: .infinity)).text == "9999-12-31T23:59:59Z")
        #expect(TDate(Date(timeIntervalSince1970: -.infinity)).text == "0001-01-01T00:00:00Z")
        #expect(TDate(Date(timeIntervalSince1970: .nan)).text == "0001-01-01T00:00:00Z")
        let now = TDate(Date())
        #expect(try TDate(text: now.text) == now)
    }

    @Test("full-date is YYYY-MM-DD under tag 1004 and checks the calendar")
    func fullDate() throws {
        let date = try #require(FullDate("2019-10-20"))
        #expect(date.year == 2019 && date.month == 10 && date.day == 20)
        #expect(date.cbor == .tagged(1004, "2019-10-20"))
        #expect(date.date.timeIntervalSince1970 == 1_571_529_600)
        #expect(FullDate(Date(timeIntervalSince1970: 1_571_529_600 + 86_399)) == date)
        #expect(FullDate(Date(timeIntervalSince1970: -1)).description == "1969-12-31")
        #expect(FullDate(year: 2000, month: 2, day: 29) != nil)
        #expect(FullDate(year: 1900, month: 2, day: 29) == nil)
        #expect(FullDate(year: 2023, month: 4, day: 31) == nil)
        #expect(FullDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(FullDate(year: 5, month: 1, day: 1)?.description == "0005-01-01")
        for bad in ["2019-10-2", "2019/10/20", "2019-10-20T00:00:00Z", "2019-13-01", "2019-00-10", "2019-10-00", "abcd-10-20", "+019-10-20"] {
            #expect(FullDate(bad) == nil, "\(bad)")
        }
        #expect(try #require(FullDate("2017-02-23")) < date)
        expectCBORError(.invalidValue, at: "<tag 1004>") { () throws(CBORError) in
            _ = try FullDate(cbor: .tagged(1004, "2019-02-30"), at: .root)
        }
        expectCBORError(.unexpectedType, at: "top level") { () throws(CBORError) in
            _ = try FullDate(cbor: "2019-10-20", at: .root)
        }
    }
}
