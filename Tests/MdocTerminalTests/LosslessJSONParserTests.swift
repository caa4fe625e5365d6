import MdocCBOR
import MdocInspection
import MdocTestSupport
import MdocText
import Testing

/// The JSON of `mdoc inspect --json` read back by ``LosslessJSONParser``: the Annex D messages
/// and items of every kind come back to the same bytes, special forms are checked, and bad text
/// fails with its line and column.
@Suite struct LosslessJSONParserTests {
    /// The error reading `text` throws, or `nil` when it reads.
    func failure(_ text: String) -> CBORTextError? {
        do {
            _ = try LosslessJSONParser.decode(text)
            return nil
        } catch {
            return error
        }
    }

    /// The bytes of `item` after a trip through the JSON text `mdoc inspect --json` writes.
    func roundTrip(_ item: CBOR) throws -> [UInt8] {
        try LosslessJSONParser.decode(item.losslessJSON.serialized(pretty: true)).encoded()
    }

    @Test(arguments: LosslessJSONTests.annexDMessages + ["device_auth", "device_engagement_nfc"])
    func annexDMessagesReadBackToTheSameBytes(_ name: String) throws {
        let bytes = Vectors.annexD(name)
        #expect(try roundTrip(CBOR.decode(bytes)) == bytes)
    }

    @Test(arguments: [
        CBOR.unsignedInt(.max), .negativeInt(.max), .unsignedInt(UInt64(Int64.max) + 1), .negativeInt(UInt64(Int64.max)), 0, -1,
        .float(1.5), .float(100_000), .float(1.1), .float(-0.0), .float(0), .float(5.960464477539063e-8), .float(1e300),
        .float(.nan), .float(.infinity), .float(-.infinity), .float(1e15), .float(-4),
        .simple(0), .simple(16), .simple(32), .simple(255), .undefined, .null, true, false,
        .byteString([]), .byteString([0, 0xFF, 0xFB]), "", "$x", "1", "-7", "01", "-0", "\u{1F600}\u{0}\"\\",
        .tagged(0, "2013-03-21T20:04:00Z"), .tagged(1004, "2024-01-01"), .tagged(.max, .null), .tagged(2, .byteString([1, 0])),
        .encodedCBOR([0xFF, 0x00]), .encodedCBOR(CBOR.encodedCBOR([0xA1, 0x01, 0x02]).encoded()),
        [1, [2, [3]], [:]] as CBOR,
        .map(CBORMap([.init(key: "$tag", value: 1), .init(key: "$$", value: 2), .init(key: .negativeInt(.max), value: 3), .init(key: "1", value: 4)])),
        .map(CBORMap([.init(key: .byteString([1]), value: 1), .init(key: [1, 2], value: 2), .init(key: true, value: .float(1.5))])),
    ])
    func itemsOfEveryKindReadBackToTheSameBytes(_ item: CBOR) throws {
        #expect(try roundTrip(item) == item.encoded())
    }

    @Test func aBigMapReadsBackInOrder() throws {
        let map = CBOR.map(CBORMap((0..<20_000).map { CBORMap.Entry(key: CBOR(19_999 - $0), value: .textString("v\($0)")) }))
        #expect(try roundTrip(map) == map.encoded())
    }

    @Test func anEmbeddedItemMayBeGivenAloneOrMustAgreeWithItsBytes() throws {
        #expect(try LosslessJSONParser.decode(#"{"$tag": 24, "$embedded": {"1": 2}}"#) == .encodedCBOR([0xA1, 0x01, 0x02]))
        #expect(try LosslessJSONParser.decode(#"{"$tag": 24, "$value": {"$bytes": "oQEC"}, "$embedded": {"1": 2}}"#) == .encodedCBOR([0xA1, 0x01, 0x02]))
        let mismatch = try #require(failure(#"{"$tag": 24, "$value": {"$bytes": "oQEC"}, "$embedded": {"1": 3}}"#))
        #expect(mismatch.code == .invalidForm)
        #expect(mismatch.position == CBORTextErrorDomain.Position(line: 1, column: 57))
        #expect(failure(#"{"$tag": 1, "$embedded": 1}"#)?.code == .invalidForm)
    }

    @Test func aCraftedMapWithADuplicateKeyIsWrittenAsGiven() throws {
        let item = try LosslessJSONParser.decode(#"{"$map": [["a", 1], ["a", 2]]}"#)
        #expect(Hex.encode(item.encoded()) == "a2616101616102")
        // Its JSON keeps both keys, in the $map form, and reads back the same.
        #expect(try LosslessJSONParser.decode(item.losslessJSON.serialized()).encoded() == item.encoded())
    }


    @Test(arguments: [
        (#"{"$bytes": "a+b"}"#, CBORTextError.Code.invalidForm, 1, 12),
        (#"{"$bytes": "AQ", "x": 1}"#, .invalidForm, 1, 18),
        (#"{"$float": "nan"}"#, .invalidForm, 1, 12),
        (#"{"$simple": 24}"#, .outOfRange, 1, 13),
        (#"{"$map": [[1]]}"#, .invalidForm, 1, 10),
        (#"{"$tag": -1, "$value": 1}"#, .invalidForm, 1, 10),
        (#"{"$tag": 1}"#, .invalidForm, 1, 1),
        (#"{"$tag": 1, "$value": 1, "$other": 2}"#, .invalidForm, 1, 26),
        (#"{"$unknown": 1}"#, .invalidForm, 1, 2),
        (#"{"18446744073709551616": 1}"#, .outOfRange, 1, 2),
        ("18446744073709551616", .outOfRange, 1, 1),
        ("-18446744073709551617", .outOfRange, 1, 1),
        ("[1,\n 2,\n x]", .syntax, 3, 2),
        (#"{"a": 1, "a": 2}"#, .syntax, 1, 10),
        // Two names, one key: "x" and "$x" are both the text key "x" (found by FuzzCBORText).
        (#"{"x": 1, "$x": 2}"#, .invalidForm, 1, 10),
        ("01", .syntax, 1, 1),
        ("1e999", .outOfRange, 1, 1),
        (#""\ud800""#, .syntax, 1, 8),
        ("[1] 2", .syntax, 1, 5),
    ])
    func badTextFailsNamingLineAndColumn(_ text: String, _ code: CBORTextError.Code, _ line: Int, _ column: Int) throws {
        let error = try #require(failure(text))
        #expect(error.code == code)
        #expect(error.position == CBORTextErrorDomain.Position(line: line, column: column))
    }

    @Test func nestingIsBoundedAtTheMaximumDepth() throws {
        let depth = LosslessJSONParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(try LosslessJSONParser.decode(deepest).encoded() == [UInt8](repeating: 0x81, count: depth - 1) + [0x80])
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(failure(tooDeep)?.code == .depthLimitExceeded)
    }

    @Test func inputSizeIsBoundedAtTheMaximum() throws {
        let size = LosslessJSONParser.maximumInputSize
        var text = [UInt8](repeating: 0x20, count: size)
        text[0] = UInt8(ascii: "7")
        #expect(try LosslessJSONParser.decode(text) == 7)
        text.append(0x20)
        do {
            _ = try LosslessJSONParser.decode(text)
            Issue.record("a text above the maximum size was read")
        } catch {
            #expect(error.code == .inputTooLarge)
        }
    }
}
