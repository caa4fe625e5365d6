@testable import MdocCBOR
import Testing

/// ``CBORHeadReader/readItem(depth:)`` reads the definite-length forms head by head and leaves
/// everything else to ``CBORDecoder``: either way the item, or its absence, must be the one
/// decoding the same bytes gives, embedded items included.
@Suite("CBORHeadReader.readItem: the item the decoder gives, read head by head where it can be")
struct CBORHeadReaderItemTests {
    /// The item `input` holds as ``CBORHeadReader`` reads it whole, or `nil`.
    static func read(_ input: [UInt8], limits: CBORLimits = .default) -> CBOR? {
        // CBOR is ExpressibleByNilLiteral: the absence is spelled Optional.none.
        CBORHeadReader.read(CBORBytes(input), limits: limits) { reader -> CBOR? in
            guard let item = reader.readItem(depth: 0), reader.isAtEnd else { return Optional.none }
            return item
        }
    }

    /// The item `input` holds as the stream decoder alone decodes it, or `nil`.
    static func streamDecoded(_ input: [UInt8], limits: CBORLimits) -> CBOR? {
        guard input.count <= limits.maximumInputSize else { return nil }
        return input.withUnsafeBufferPointer { buffer -> CBOR? in
            let decoded = try? CBORDecoder(limits: limits).decodeItem(buffer, at: 0, storage: input, base: 0, reader: CBORStreamReader())
            guard let decoded, decoded.next == input.count else { return Optional.none }
            return decoded.item
        }
    }

    /// Where each embedded item's tag head begins, in the order met: equal values can differ
    /// there, and ``EmbeddedCBOR/taggedBytes`` depends on it.
    static func embeddings(_ item: CBOR) -> [Int?] {
        switch item {
        case .tagged(CBOR.Tag.encodedCBOR, .byteString(let bytes)): return [bytes.receivedEmbedding?.range.lowerBound ?? -1]
        case .tagged(_, let content): return embeddings(content)
        case .array(let items): return items.flatMap(embeddings)
        case .map(let map): return map.entries.flatMap { embeddings($0.key) + embeddings($0.value) }
        default: return []
        }
    }

    /// Expects the item read head by head, and the one `CBORDecoder.decode` gives, to be the
    /// stream decoder's.
    static func expectSameAsDecoded(_ input: [UInt8], limits: CBORLimits = .default, sourceLocation: SourceLocation = #_sourceLocation) {
        let decoded = Self.streamDecoded(input, limits: limits)
        let read = Self.read(input, limits: limits)
        #expect(read == decoded, "\(input)", sourceLocation: sourceLocation)
        if let read, let decoded {
            #expect(Self.embeddings(read) == Self.embeddings(decoded), "\(input)", sourceLocation: sourceLocation)
        }
        let viaDecode = try? CBORDecoder(limits: limits).decode(input)
        #expect(viaDecode == decoded, "\(input)", sourceLocation: sourceLocation)
        if let viaDecode, let decoded {
            #expect(Self.embeddings(viaDecode) == Self.embeddings(decoded), "\(input)", sourceLocation: sourceLocation)
        }
    }

    @Test("Every kind of item, definite or not, well-formed or not, reads as it decodes", arguments: [
        "00", "17", "1818", "1b ffffffffffffffff", "20", "38 ff", "3b ffffffffffffffff",
        "40", "43 010203", "60", "63 616263", "62 c328",  // invalid UTF-8
        "80", "83 01 02 03", "82 01 82 02 03", "9f 01 02 ff",  // indefinite array
        "a0", "a2 6161 01 6162 02", "a2 01 02 01 03",  // key 1 twice
        "a2 6161 01 6161 02", "a1 82 01 02 03",  // an array as a key
        "a1 41 01 02", "bf 6161 01 ff",  // indefinite map
        "d903ec 6a 323032302d31302d3031",  // full-date
        "c0 74 323032302d31302d30315431333a33303a30325a",  // tdate
        "d818 43 a10102", "d818 40", "d818 01", "d818 d818 41 00",
        "f4", "f5", "f6", "f7", "f0", "f8 20", "f9 3c00", "fa 3f800000", "fb 3ff0000000000000",
        "5f 41 01 42 0203 ff", "7f 61 61 62 6263 ff",  // indefinite strings
        "a1 01", "83 01 02", "1c", "ff", "f8 10", "d818",  // cut short, reserved, stray break
        "a3 6161 f4 6162 f5 6163 f6", "82 d903ec 6a 323032302d31302d3031 a1 6161 a1 6162 82 20 39 0100",
    ])
    func corpus(hex: String) throws {
        Self.expectSameAsDecoded(try bytes(hex))
    }

    @Test("A map of more entries than the duplicate scan, and containers beyond the limits, read as they decode")
    func limits() throws {
        let count = CBORDecoder.linearDuplicateKeyScanLimit + 1
        var map: [UInt8] = [0xa0 + UInt8(count)]  // fewer than 24 entries: the count is in the head
        for key in 0..<count { map += [UInt8(key), 0x01] }
        Self.expectSameAsDecoded(map)
        #expect(Self.read(map)?.mapValue?.count == count)
        // [[[1]]] at depth limits 2 and 3, and items 3 and 4.
        let nested = try bytes("81 81 81 01")
        for depth in 2...3 {
            Self.expectSameAsDecoded(nested, limits: CBORLimits(maximumDepth: depth, maximumItemCount: 10, maximumInputSize: 64))
        }
        for items in 3...4 {
            Self.expectSameAsDecoded(nested, limits: CBORLimits(maximumDepth: 5, maximumItemCount: items, maximumInputSize: 64))
        }
        #expect(Self.read(nested, limits: CBORLimits(maximumDepth: 3, maximumItemCount: 4, maximumInputSize: 64)) == [[[1]]])
        #expect(Self.read(nested, limits: CBORLimits(maximumDepth: 2, maximumItemCount: 4, maximumInputSize: 64)) == nil)
        #expect(Self.read(nested, limits: CBORLimits(maximumDepth: 3, maximumItemCount: 3, maximumInputSize: 64)) == nil)
    }

    /// A deterministic generator (SplitMix64), so that a failure repeats.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static func randomItem(_ random: inout Generator, depth: Int) -> CBOR {
        let leaf = depth >= 4
        switch Int.random(in: 0..<(leaf ? 7 : 11), using: &random) {
        case 0: return .unsignedInt([0, 23, 24, 255, 256, 65_536, UInt64.max].randomElement(using: &random)!)
        case 1: return .negativeInt(UInt64.random(in: 0...70_000, using: &random))
        case 2: return .byteString(CBORBytes((0..<Int.random(in: 0...30, using: &random)).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        case 3: return .textString(["", "a", "family_name", "Ünïcødé", String(repeating: "x", count: 30)].randomElement(using: &random)!)
        case 4: return [.boolean(true), .boolean(false), .null, .float(1.5), .undefined].randomElement(using: &random)!
        case 5: return .tagged(1004, .textString("2020-10-01"))
        case 6: return .tagged(CBOR.Tag.encodedCBOR, .byteString(CBORBytes(CBOR.unsignedInt(7).encoded())))
        case 7, 8:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomItem(&random, depth: depth + 1) })
        case 9:
            var map = CBORMap()
            for index in 0..<Int.random(in: 0...4, using: &random) {
                let key: CBOR = Bool.random(using: &random) ? .textString("k\(index % 3)") : .unsignedInt(UInt64(index))
                map.append(key, randomItem(&random, depth: depth + 1))
            }
            return .map(map)
        default:
            return .tagged(UInt64.random(in: 0...30, using: &random), randomItem(&random, depth: depth + 1))
        }
    }

    @Test("Generated items, and every one of them altered at random, read as they decode")
    func generatedAndAltered() {
        var random = Generator(state: 0x18013_5)
        for _ in 0..<400 {
            let encoded = Self.randomItem(&random, depth: 0).encoded()
            Self.expectSameAsDecoded(encoded)
            for _ in 0..<8 {
                var altered = encoded
                switch Int.random(in: 0..<3, using: &random) {
                case 0: altered[Int.random(in: 0..<altered.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                case 1: altered.removeLast(Int.random(in: 0..<altered.count, using: &random))
                default: altered.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...altered.count, using: &random))
                }
                Self.expectSameAsDecoded(altered)
            }
        }
    }
}
