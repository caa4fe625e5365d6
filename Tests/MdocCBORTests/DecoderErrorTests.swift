import MdocCBOR
import MdocTestSupport
import Testing

/// Malformed and hostile input (RFC 8949 sections 3, 5.3 and 5.6): each is rejected with its
/// specific error code, path and offset, and never crashes.
struct DecoderErrorTests {
    @Test func everyPrefixOfAMessageIsTruncated() throws {
        let message = Vectors.annexD("device_request")
        for length in 0..<message.count {
            let error = decodingError(Array(message.prefix(length)))
            let code = try #require(error?.code, "prefix of \(length) bytes decoded")
            #expect(code == .truncated || code == .declaredLengthExceedsInput, "prefix of \(length) bytes: \(code)")
        }
        #expect(decodingError(message) == nil)
    }

    @Test(arguments: [
        ("", 0), ("19", 0), ("1901", 0), ("1b00000000000000", 0), ("f9", 0), ("fa0000", 0), ("f8", 0),
        ("d8", 0), ("9f01", 2), ("bf6161", 3), ("5f", 1), ("7f6161", 3), ("c1", 1), ("a16161", 3),
    ])
    func truncatedItems(hex: String, offset: Int) throws {
        let error = try #require(try decodingError(hex: hex))
        #expect(error.code == .truncated)
        #expect(error.offset == offset)
    }

    @Test(arguments: [
        "5b4000000000000000", "5bffffffffffffffff", "7b4000000000000000", "5a0001000000", "59ffff00", "4201",
        "6301", "9bffffffffffffffff", "9b4000000000000000", "9a0001000000", "8301 02", "bbffffffffffffffff",
        "bb4000000000000000", "a2010203", "82 01", "81",
    ])
    func oversizedDeclaredLengths(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .declaredLengthExceedsInput)
    }

    @Test func declaredLengthErrorNamesTheItem() throws {
        let error = try #require(try decodingError(hex: "a2616101 61625b4000000000000000"))
        #expect(error.code == .declaredLengthExceedsInput)
        #expect(error.path == CBORPath("b"))
        #expect(error.offset == 6)
    }

    @Test(arguments: [0x81, 0x9f, 0xc1] as [UInt8])
    func depthBomb(_ opener: UInt8) {
        let bomb = [UInt8](repeating: opener, count: 100_000)
        let error = decodingError(bomb)
        #expect(error?.code == .depthLimitExceeded)
        #expect(error?.offset == CBORLimits.defaultMaximumDepth)
    }

    @Test func mapDepthBomb() {
        let bomb = (0..<200_000).map { $0 % 2 == 0 ? UInt8(0xa1) : UInt8(0x01) }
        #expect(decodingError(bomb)?.code == .depthLimitExceeded)
    }

    @Test(arguments: ["62c328", "61ff", "63eda080", "7f61c3ff", "7f61c361bcff", "a162c328 01", "c0 61 80"])
    func invalidUTF8(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .invalidUTF8)
    }

    @Test(arguments: [("0000", 1), ("8001", 1), ("a0a0", 1), ("6161 ff", 2), ("f97e00 00", 3)])
    func trailingBytes(hex: String, offset: Int) throws {
        let error = try #require(try decodingError(hex: hex))
        #expect(error.code == .trailingBytes)
        #expect(error.offset == offset)
    }

    @Test func duplicateMapKeys() throws {
        let error = try #require(try decodingError(hex: "a1 6161 a2 0102 0103"))
        #expect(error.code == .duplicateMapKey)
        #expect(error.path == CBORPath(components: [.key("a"), .intKey(1)]))
        #expect(error.offset == 6)
        // The same key written in two ways is still the same key.
        #expect(try decodingError(hex: "a2 6161 01 7f6161ff 02")?.code == .duplicateMapKey)
        #expect(try decodingError(hex: "bf 4101 01 4101 02 ff")?.code == .duplicateMapKey)
        #expect(try decodingError(hex: "a2 8101 01 8101 02")?.code == .duplicateMapKey)
        // Keys that differ only in major type are different keys.
        #expect(try decodingError(hex: "a3 01 00 20 00 6131 00") == nil)
    }

    @Test(arguments: [
        "1c", "1d", "1e", "3c", "3d", "3e", "5c", "5d", "5e", "7c", "7d", "7e", "9c", "9d", "9e", "bc", "bd", "be",
        "dc", "dd", "de", "fc", "fd", "fe",
    ])
    func reservedAdditionalInformation(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .malformed)
        #expect(try decodingError(hex: "81" + hex)?.code == .malformed)
    }

    @Test(arguments: ["1f", "3f", "df"])
    func indefiniteLengthWhereNoneIsAllowed(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .malformed)
    }

    @Test(arguments: ["ff", "81ff", "a101ff", "bf01ff", "c1ff", "9f81ffff", "8200ff"])
    func strayBreak(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .malformed)
    }

    @Test(arguments: ["5f6161ff", "7f4161ff", "5f5fffff", "7f7fffff", "5f01ff", "7f80ff", "5fc14100ff", "5f5f4100ffff"])
    func wrongChunkInIndefiniteString(hex: String) throws {
        #expect(try decodingError(hex: hex)?.code == .malformed)
    }

    @Test func twoByteSimpleValues() throws {
        for value in UInt8(0)..<32 {
            #expect(decodingError([0xf8, value])?.code == .malformed, "f8 \(value)")
        }
        for value in UInt8(32)...255 {
            #expect(try CBOR.decode([0xf8, value]) == .simple(value))
        }
        for value in UInt8(0)..<20 {
            #expect(try CBOR.decode([0xe0 + value]) == .simple(value))
        }
    }

    @Test func everyTagNumberInTheInitialByte() throws {
        for tag in UInt8(0)...23 {
            let input = [0xc0 + tag, 0x00]
            let decoded = try CBOR.decode(input)
            #expect(decoded == .tagged(UInt64(tag), 0))
            #expect(decoded.encoded() == input)
        }
        // A tag below 24 written in two bytes decodes to the same item.
        #expect(try CBOR.decode(try bytes("d80c00")).encoded() == [0xcc, 0x00])
    }

    @Test func nestedFailureHasItsPath() throws {
        // {"a": {"b": [0, "\xc3("]}}
        let error = try #require(try decodingError(hex: "a1 6161 a1 6162 82 00 62c328"))
        #expect(error.code == .invalidUTF8)
        #expect(error.path == CBORPath(components: [.key("a"), .key("b"), .index(1)]))
        #expect(error.path.description == "a.b[1]")
        #expect(error.offset == 8)
    }

    @Test func pathComponentsForEveryContainer() throws {
        // {1: {-2: [1(h'01', ...)]}} with a reserved byte inside the tag
        let intKeys = try #require(try decodingError(hex: "a1 01 a1 21 81 c1 1c"))
        #expect(intKeys.path == CBORPath(components: [.intKey(1), .intKey(-2), .index(0), .tagContent(1)]))
        #expect(intKeys.offset == 6)
        // A key that is not text or an integer is located by its position.
        let byteKey = try #require(try decodingError(hex: "a2 00 00 4101 1c"))
        #expect(byteKey.path == CBORPath(components: [.index(1)]))
        // A failing key is located by its position too.
        let badKey = try #require(try decodingError(hex: "a2 00 00 62c328 00"))
        #expect(badKey.code == .invalidUTF8)
        #expect(badKey.path == CBORPath(components: [.index(1)]))
        // Text keys that are not identifiers print in brackets.
        let dotted = try #require(try decodingError(hex: "a1 716f72672e69736f2e31383031332e352e31 81 ff"))
        #expect(dotted.path.description == "[\"org.iso.18013.5.1\"][0]")
    }

    @Test func errorDescriptionSaysWhatAndWhere() throws {
        let error = try #require(try decodingError(hex: "a1 6161 82 00 1c"))
        #expect(error.description.contains("reserved additional information"))
        #expect(error.description.hasSuffix("at a[1] (byte 5)"))
    }
}
