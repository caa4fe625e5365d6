import MdocCBOR
import Testing

/// Duplicate map keys (RFC 8949 section 5.6) are rejected on both sides of
/// ``CBORDecoder/linearDuplicateKeyScanLimit``: small maps compare keys one by one, larger maps
/// hash them into a set that must also hold the keys seen before the switch.
struct DuplicateKeyScanTests {
    private let limit = CBORDecoder.linearDuplicateKeyScanLimit

    /// A map whose entries have the unsigned-integer keys `keys` (each below 256) and value 0,
    /// followed by `extraCount` entries written as `extra`, with a definite or an indefinite length.
    private func map(keys: [UInt8], extra: [UInt8] = [], extraCount: Int = 0, indefinite: Bool = false) -> [UInt8] {
        let count = keys.count + extraCount
        var bytes: [UInt8] = indefinite ? [0xbf] : count < 24 ? [0xa0 + UInt8(count)] : [0xb8, UInt8(count)]
        for key in keys {
            bytes += key < 24 ? [key] : [0x18, key]
            bytes.append(0x00)
        }
        bytes += extra
        if indefinite { bytes.append(0xff) }
        return bytes
    }

    /// The byte offset of the key of entry `index` in ``map(keys:indefinite:)``.
    private func offsetOfKey(_ index: Int, in keys: [UInt8], headLength: Int) -> Int {
        headLength + keys.prefix(index).reduce(0) { $0 + ($1 < 24 ? 1 : 2) + 1 }
    }

    @Test func limitIsSixteen() {
        #expect(limit == 16)
    }

    @Test(arguments: [false, true])
    func atTheLimitDistinctKeysDecode(indefinite: Bool) throws {
        let keys = (0..<limit).map(UInt8.init)
        let value = try CBOR.decode(map(keys: keys, indefinite: indefinite))
        #expect(value.mapValue?.count == limit)
    }

    @Test(arguments: [false, true])
    func aboveTheLimitDistinctKeysDecode(indefinite: Bool) throws {
        for count in [limit + 1, limit + 2, 4 * limit] {
            let keys = (0..<count).map(UInt8.init)
            let value = try CBOR.decode(map(keys: keys, indefinite: indefinite))
            #expect(value.mapValue?.count == count)
            #expect(value.mapValue?.entries.map(\.key) == keys.map { .unsignedInt(UInt64($0)) })
        }
    }

    @Test func atTheLimitDuplicateIsRejected() throws {
        // The last of `limit` keys repeats the first: found by the linear scan.
        let keys = (0..<limit - 1).map(UInt8.init) + [0]
        let error = try #require(decodingError(map(keys: keys)))
        #expect(error.code == .duplicateMapKey)
        #expect(error.path == CBORPath(components: [.intKey(0)]))
        #expect(error.offset == offsetOfKey(limit - 1, in: keys, headLength: 1))
    }

    @Test(arguments: [false, true])
    func aboveTheLimitDuplicatesAreRejected(indefinite: Bool) throws {
        // The first key past the limit repeats a key seen during the linear scan.
        let first = (0..<limit).map(UInt8.init) + [UInt8(limit - 1)]
        let firstError = try #require(decodingError(map(keys: first, indefinite: indefinite)))
        #expect(firstError.code == .duplicateMapKey)
        #expect(firstError.path == CBORPath(components: [.intKey(Int64(limit - 1))]))
        #expect(firstError.offset == offsetOfKey(limit, in: first, headLength: 1))
        // A later key repeats a key that was added to the set, and another repeats an early one.
        let later = (0..<3 * limit).map(UInt8.init) + [UInt8(2 * limit)]
        #expect(decodingError(map(keys: later, indefinite: indefinite))?.code == .duplicateMapKey)
        let early = (0..<3 * limit).map(UInt8.init) + [3]
        #expect(decodingError(map(keys: early, indefinite: indefinite))?.code == .duplicateMapKey)
    }

    @Test func aboveTheLimitKeysThatDifferInMajorTypeAreDistinct() throws {
        // Keys 0...limit, then -1 (0x20), "0" (0x6130) and h'00' (0x4100).
        let bytes = map(
            keys: (0...limit).map(UInt8.init), extra: [0x20, 0x00, 0x61, 0x30, 0x00, 0x41, 0x00, 0x00], extraCount: 3)
        #expect(try CBOR.decode(bytes).mapValue?.count == limit + 4)
        // The same text key twice, written once in chunks, past the limit.
        let duplicate = map(
            keys: (0...limit).map(UInt8.init), extra: [0x61, 0x61, 0x00, 0x7f, 0x61, 0x61, 0xff, 0x00], extraCount: 2)
        let error = try #require(decodingError(duplicate))
        #expect(error.code == .duplicateMapKey)
        #expect(error.path == CBORPath(components: [.key("a")]))
    }
}
