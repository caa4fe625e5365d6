import MdocCBOR
import Testing

/// RFC 8949 Appendix A: every example of the table of encodings, checked in both directions
/// where both apply.
struct AppendixATests {
    struct Example: CustomTestStringConvertible, Sendable {
        let hex: String
        let value: CBOR
        /// Our diagnostic notation of the value (Appendix A's, up to float formatting).
        let diagnostic: String
        /// The preferred encoding when `hex` is not it (indefinite lengths, wide floats).
        let reencoded: String?

        init(_ hex: String, _ value: CBOR, _ diagnostic: String, reencoded: String? = nil) {
            self.hex = hex
            self.value = value
            self.diagnostic = diagnostic
            self.reencoded = reencoded
        }

        var testDescription: String { hex }
    }

    static let integers: [Example] = [
        Example("00", 0, "0"),
        Example("01", 1, "1"),
        Example("0a", 10, "10"),
        Example("17", 23, "23"),
        Example("1818", 24, "24"),
        Example("1819", 25, "25"),
        Example("1864", 100, "100"),
        Example("1903e8", 1000, "1000"),
        Example("1a000f4240", 1_000_000, "1000000"),
        Example("1b000000e8d4a51000", 1_000_000_000_000, "1000000000000"),
        Example("1bffffffffffffffff", .unsignedInt(.max), "18446744073709551615"),
        Example("c249010000000000000000", .tagged(2, .byteString([1, 0, 0, 0, 0, 0, 0, 0, 0])), "2(h'010000000000000000')"),
        Example("3bffffffffffffffff", .negativeInt(.max), "-18446744073709551616"),
        Example("c349010000000000000000", .tagged(3, .byteString([1, 0, 0, 0, 0, 0, 0, 0, 0])), "3(h'010000000000000000')"),
        Example("20", -1, "-1"),
        Example("29", -10, "-10"),
        Example("3863", -100, "-100"),
        Example("3903e7", -1000, "-1000"),
    ]

    static let floats: [Example] = [
        Example("f90000", .float(0.0), "0.0"),
        Example("f98000", .float(-0.0), "-0.0"),
        Example("f93c00", .float(1.0), "1.0"),
        Example("fb3ff199999999999a", .float(1.1), "1.1"),
        Example("f93e00", .float(1.5), "1.5"),
        Example("f97bff", .float(65504.0), "65504.0"),
        Example("fa47c35000", .float(100000.0), "100000.0"),
        Example("fa7f7fffff", .float(3.4028234663852886e+38), "3.4028234663852886e+38"),
        Example("fb7e37e43c8800759c", .float(1.0e+300), "1.0e+300"),
        Example("f90001", .float(5.960464477539063e-8), "5.960464477539063e-8"),
        Example("f90400", .float(0.00006103515625), "6.103515625e-5"),
        Example("f9c400", .float(-4.0), "-4.0"),
        Example("fbc010666666666666", .float(-4.1), "-4.1"),
        Example("f97c00", .float(.infinity), "Infinity"),
        Example("f9fc00", .float(-.infinity), "-Infinity"),
        Example("fa7f800000", .float(.infinity), "Infinity", reencoded: "f97c00"),
        Example("faff800000", .float(-.infinity), "-Infinity", reencoded: "f9fc00"),
        Example("fb7ff0000000000000", .float(.infinity), "Infinity", reencoded: "f97c00"),
        Example("fbfff0000000000000", .float(-.infinity), "-Infinity", reencoded: "f9fc00"),
    ]

    static let simpleValuesAndTags: [Example] = [
        Example("f4", false, "false"),
        Example("f5", true, "true"),
        Example("f6", nil, "null"),
        Example("f7", .undefined, "undefined"),
        Example("f0", .simple(16), "simple(16)"),
        Example("f8ff", .simple(255), "simple(255)"),
        Example("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z"), "0(\"2013-03-21T20:04:00Z\")"),
        Example("c11a514b67b0", .tagged(1, 1_363_896_240), "1(1363896240)"),
        Example("c1fb41d452d9ec200000", .tagged(1, .float(1_363_896_240.5)), "1(1363896240.5)"),
        Example("d74401020304", .tagged(23, .byteString([1, 2, 3, 4])), "23(h'01020304')"),
        Example("d818456449455446", .tagged(24, .byteString([0x64, 0x49, 0x45, 0x54, 0x46])), "24(h'6449455446')"),
        Example("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com"), "32(\"http://www.example.com\")"),
    ]

    static let stringsArraysMaps: [Example] = [
        Example("40", .byteString([]), "h''"),
        Example("4401020304", .byteString([1, 2, 3, 4]), "h'01020304'"),
        Example("60", "", "\"\""),
        Example("6161", "a", "\"a\""),
        Example("6449455446", "IETF", "\"IETF\""),
        Example("62225c", "\"\\", "\"\\\"\\\\\""),
        Example("62c3bc", "\u{00fc}", "\"\u{00fc}\""),
        Example("63e6b0b4", "\u{6c34}", "\"\u{6c34}\""),
        Example("64f0908591", "\u{10151}", "\"\u{10151}\""),
        Example("80", [], "[]"),
        Example("83010203", [1, 2, 3], "[1, 2, 3]"),
        Example("8301820203820405", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]"),
        Example(
            "98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { CBOR($0) }),
            "[" + (1...25).map(String.init).joined(separator: ", ") + "]"),
        Example("a0", [:], "{}"),
        Example("a201020304", [1: 2, 3: 4], "{1: 2, 3: 4}"),
        Example("a26161016162820203", ["a": 1, "b": [2, 3]], "{\"a\": 1, \"b\": [2, 3]}"),
        Example("826161a161626163", ["a", ["b": "c"]], "[\"a\", {\"b\": \"c\"}]"),
        Example(
            "a56161614161626142616361436164614461656145", ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"],
            "{\"a\": \"A\", \"b\": \"B\", \"c\": \"C\", \"d\": \"D\", \"e\": \"E\"}"),
    ]

    static let indefiniteLengths: [Example] = [
        Example("5f42010243030405ff", .byteString([1, 2, 3, 4, 5]), "h'0102030405'", reencoded: "450102030405"),
        Example("7f657374726561646d696e67ff", "streaming", "\"streaming\"", reencoded: "6973747265616d696e67"),
        Example("9fff", [], "[]", reencoded: "80"),
        Example("9f018202039f0405ffff", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", reencoded: "8301820203820405"),
        Example("9f01820203820405ff", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", reencoded: "8301820203820405"),
        Example("83018202039f0405ff", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", reencoded: "8301820203820405"),
        Example("83019f0203ff820405", [1, [2, 3], [4, 5]], "[1, [2, 3], [4, 5]]", reencoded: "8301820203820405"),
        Example(
            "9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { CBOR($0) }),
            "[" + (1...25).map(String.init).joined(separator: ", ") + "]",
            reencoded: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        Example("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]], "{\"a\": 1, \"b\": [2, 3]}", reencoded: "a26161016162820203"),
        Example("826161bf61626163ff", ["a", ["b": "c"]], "[\"a\", {\"b\": \"c\"}]", reencoded: "826161a161626163"),
        Example("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2], "{\"Fun\": true, \"Amt\": -2}", reencoded: "a26346756ef563416d7421"),
    ]

    @Test(arguments: integers + floats + simpleValuesAndTags + stringsArraysMaps + indefiniteLengths)
    func decodesEncodesAndPrints(_ example: Example) throws {
        let input = try bytes(example.hex)
        let decoded = try CBOR.decode(input)
        #expect(decoded == example.value)
        #expect(decoded.diagnosticNotation() == example.diagnostic)
        let preferred = try bytes(example.reencoded ?? example.hex)
        #expect(decoded.encoded() == preferred)
        #expect(example.value.encoded() == preferred)
    }

    /// NaN is not equal to itself, so its three encodings are checked apart.
    @Test(arguments: ["f97e00", "fa7fc00000", "fb7ff8000000000000"])
    func notANumber(_ hex: String) throws {
        let decoded = try CBOR.decode(try bytes(hex))
        guard case .float(let value) = decoded else {
            Issue.record("expected a float, found \(decoded)")
            return
        }
        #expect(value.isNaN)
        #expect(decoded.diagnosticNotation() == "NaN")
        #expect(decoded.encoded() == [0xf9, 0x7e, 0x00])
    }
}
