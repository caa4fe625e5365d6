import MdocCBOR
import MdocStatusList
import Testing

@Suite("zlib (RFC 1950) for status lists")
struct ZlibTests {
    /// The example list's `lst`: header 78da, DEFLATE data dbb91800, Adler-32 0217015d of b9a3.
    let example: [UInt8] = [0x78, 0xda, 0xdb, 0xb9, 0x18, 0x00, 0x02, 0x17, 0x01, 0x5d]

    @Test("the draft's example inflates to b9a3")
    func example1Bit() throws {
        #expect(try ZlibInflater.inflate(example) == [0xb9, 0xa3])
    }

    @Test("what the deflater writes inflates back, from 0 bytes to several output chunks", arguments: [0, 1, 2, 65_535, 65_536, 200_001])
    func roundTrip(count: Int) throws {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let compressed = try ZlibDeflater.deflate(bytes)
        #expect(compressed.first == 0x78)
        #expect(try ZlibInflater.inflate(compressed) == bytes)
    }

    @Test("raw DEFLATE, without the zlib header and trailer, is rejected")
    func rawDeflate() {
        #expect(throws: StatusListError(.notZlib, "")) { try ZlibInflater.inflate(Array(example[2..<6])) }
    }

    @Test("a gzip member is rejected as gzip")
    func gzip() {
        // RFC 1952 2.3: ID1 ID2 CM FLG MTIME(4) XFL OS, the DEFLATE data, CRC-32, ISIZE.
        let member: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0x03] + example[2..<6] + [0x5b, 0x3d, 0x5d, 0x04, 0x02, 0, 0, 0]
        #expect(throws: StatusListError(.gzipNotZlib, "")) { try ZlibInflater.inflate(member) }
    }

    @Test("header faults: another method, a window over 32 KiB, a bad FCHECK, a preset dictionary")
    func headers() {
        #expect(throws: StatusListError(.notZlib, "")) { try ZlibInflater.inflate([0x79, 0x9b] + example[2...]) }
        #expect(throws: StatusListError(.notZlib, "")) { try ZlibInflater.inflate([0x88, Self.flg(cmf: 0x88, dictionary: false)] + example[2...]) }
        #expect(throws: StatusListError(.notZlib, "")) { try ZlibInflater.inflate([0x78, 0xdb] + example[2...]) }
        #expect(throws: StatusListError(.presetDictionary, "")) {
            try ZlibInflater.inflate([0x78, Self.flg(cmf: 0x78, dictionary: true)] + [0, 0, 0, 1] + example[2...])
        }
    }

    @Test("a wrong Adler-32 is rejected")
    func badChecksum() {
        var bytes = example
        bytes[9] ^= 0x01
        #expect(throws: StatusListError(.checksumMismatch, "")) { try ZlibInflater.inflate(bytes) }
    }

    @Test("bytes after the trailer are rejected")
    func trailing() {
        #expect(throws: StatusListError(.trailingBytes, "")) { try ZlibInflater.inflate(example + [0x00]) }
    }

    @Test("a stream cut anywhere is truncated", arguments: 0..<10)
    func truncated(length: Int) {
        #expect(throws: StatusListError(.truncated, "")) { try ZlibInflater.inflate(Array(example.prefix(length))) }
    }

    @Test("invalid DEFLATE data (block type 3) is rejected")
    func invalidDeflate() {
        #expect(throws: StatusListError(.invalidDeflate, "")) { try ZlibInflater.inflate([0x78, 0x9c, 0xff, 0, 0, 0, 0]) }
    }

    @Test("the cap: the limit's worth of zeros inflates, one byte more does not (a zlib bomb)")
    func cap() throws {
        let limit = StatusListLimits.decompressedBytes
        let atCap = try ZlibDeflater.deflate([UInt8](repeating: 0, count: limit))
        let overCap = try ZlibDeflater.deflate([UInt8](repeating: 0, count: limit + 1))
        #expect(overCap.count < 20_000)
        #expect(try ZlibInflater.inflate(atCap).count == limit)
        #expect(throws: StatusListError(.decompressedTooLarge, "")) { try ZlibInflater.inflate(overCap) }
    }

    @Test("a smaller cap is honoured on both sides")
    func smallerCap() throws {
        let compressed = try ZlibDeflater.deflate([UInt8](repeating: 7, count: 1000))
        #expect(try ZlibInflater.inflate(compressed, limit: 1000).count == 1000)
        #expect(throws: StatusListError(.decompressedTooLarge, "")) { try ZlibInflater.inflate(compressed, limit: 999) }
    }

    /// An FLG byte that makes a valid FCHECK after `cmf` (RFC 1950 section 2.2).
    static func flg(cmf: UInt8, dictionary: Bool) -> UInt8 {
        let base = UInt16(cmf) << 8 | (dictionary ? 0x20 : 0) | 0xc0
        return UInt8(truncatingIfNeeded: base) + UInt8((31 - base % 31) % 31)
    }
}
