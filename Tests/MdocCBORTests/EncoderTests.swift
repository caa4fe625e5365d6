import MdocCBOR
import Testing

/// Preferred serialization (RFC 8949 section 4.2.1) and the deterministic key order.
struct EncoderTests {
    @Test(arguments: [
        (CBOR.unsignedInt(23), "17"), (.unsignedInt(24), "1818"), (.unsignedInt(255), "18ff"), (.unsignedInt(256), "190100"),
        (.unsignedInt(65535), "19ffff"), (.unsignedInt(65536), "1a00010000"), (.unsignedInt(0xffff_ffff), "1affffffff"),
        (.unsignedInt(0x1_0000_0000), "1b0000000100000000"), (.negativeInt(23), "37"), (.negativeInt(24), "3818"),
        (.negativeInt(0xffff_ffff), "3affffffff"), (CBOR(Int64.min), "3b7fffffffffffffff"),
    ])
    func shortestIntegerHeads(value: CBOR, hex: String) throws {
        #expect(value.encoded() == (try bytes(hex)))
    }

    @Test func stringAndContainerHeads() throws {
        let longBytes = CBOR.byteString([UInt8](repeating: 7, count: 300))
        #expect(Array(longBytes.encoded().prefix(3)) == [0x59, 0x01, 0x2c])
        #expect(longBytes.encoded().count == 303)
        let text = CBOR.textString(String(repeating: "x", count: 24))
        #expect(Array(text.encoded().prefix(2)) == [0x78, 24])
        let array = CBOR.array([CBOR](repeating: 0, count: 24))
        #expect(Array(array.encoded().prefix(2)) == [0x98, 24])
        let map = CBOR.map(CBORMap((0..<24).map { CBORMap.Entry(key: CBOR($0), value: nil) }))
        #expect(Array(map.encoded().prefix(2)) == [0xb8, 24])
        #expect(CBOR.tagged(1004, "2019-10-20").encoded() == (try bytes("d903ec 6a323031392d31302d3230")))
    }

    @Test(arguments: [
        (1.5, "f93e00"), (65504.0, "f97bff"), (65505.0, "fa477fe100"), (100000.0, "fa47c35000"),
        (1.1, "fb3ff199999999999a"), (-0.0, "f98000"), (5.960464477539063e-8, "f90001"),
        // A subnormal half with more than one significand bit.
        (3 * 5.960464477539063e-8, "f90003"), (6.097555160522461e-05, "f903ff"),
        (Double(Float.leastNonzeroMagnitude), "fa00000001"), (Double.leastNonzeroMagnitude, "fb0000000000000001"),
        (Double.infinity, "f97c00"), (-Double.infinity, "f9fc00"), (Double.nan, "f97e00"),
        (Double(bitPattern: 0x7ff0_0000_0000_0001), "f97e00"),
    ])
    func shortestExactFloat(value: Double, hex: String) throws {
        let encoded = CBOR.float(value).encoded()
        #expect(encoded == (try bytes(hex)))
        if !value.isNaN {
            #expect(try CBOR.decode(encoded) == .float(value))
        }
    }

    @Test func simpleValues() {
        #expect(CBOR.simple(0).encoded() == [0xe0])
        #expect(CBOR.simple(19).encoded() == [0xf3])
        #expect(CBOR.simple(32).encoded() == [0xf8, 0x20])
        #expect(CBOR.simple(255).encoded() == [0xf8, 0xff])
        #expect(CBOR.boolean(false).encoded() == [0xf4])
        #expect(CBOR.null.encoded() == [0xf6])
        #expect(CBOR.undefined.encoded() == [0xf7])
    }

    @Test func mapEntriesKeepTheirOrder() throws {
        let value: CBOR = ["b": 1, "a": 2]
        #expect(value.encoded() == (try bytes("a2 6162 01 6161 02")))
    }

    @Test func encodeAppendsToTheBuffer() {
        var out: [UInt8] = [0xaa]
        CBOR.array([1, "a"]).encode(into: &out)
        #expect(out == [0xaa, 0x82, 0x01, 0x61, 0x61])
    }

    @Test func deterministicKeyOrder() throws {
        let value: CBOR = [
            "aa": 6, [1]: 5, "b": ["z": 1, "y": [3: 0, 1: 0]], -1: 4, "a": 2, 10: 3,
            24: .encodedCBOR([0xa2, 0x61, 0x62, 0x00, 0x61, 0x61, 0x00]),
        ]
        let sorted = value.sortedDeterministically()
        let expected: CBOR = [
            10: 3, 24: .encodedCBOR([0xa2, 0x61, 0x62, 0x00, 0x61, 0x61, 0x00]), -1: 4, "a": 2,
            "b": ["y": [1: 0, 3: 0], "z": 1], "aa": 6, [1]: 5,
        ]
        #expect(sorted == expected)
        #expect(sorted.encoded() == expected.encoded())
        // Sorting is idempotent and keeps items that are not maps.
        #expect(sorted.sortedDeterministically() == sorted)
        #expect(CBOR.array([["b": 1, "a": 2]]).sortedDeterministically() == [["a": 2, "b": 1]])
        #expect(CBOR.tagged(1, ["b": 1, "a": 2]).sortedDeterministically() == .tagged(1, ["a": 2, "b": 1]))
    }
}
