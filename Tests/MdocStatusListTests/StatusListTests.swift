import MdocCBOR
import MdocStatusList
import Testing

@Suite("Status lists (draft-ietf-oauth-status-list section 4)")
struct StatusListTests {
    @Test("the 1-bit example of section 4.1: b9a3 holds 1,0,0,1,1,1,0,1,1,1,0,0,0,1,0,1")
    func oneBitExample() throws {
        let vector = TokenStatusListVectors.bytes("status_list_encoding1")
        let list = try StatusList(cbor: CBOR.decode(vector), at: .root)
        #expect(list.bits == 1)
        #expect(list.bytes == [0xb9, 0xa3])
        #expect(list.count == 16)
        #expect(try (0..<16).map { try list.value(at: UInt64($0)).rawValue } == TokenStatusListVectors.exampleStatuses)
        #expect(throws: StatusListError(.indexOutOfRange, "")) { try list.value(at: 16) }
        #expect(list.cbor.encoded() == vector)
    }

    @Test("the 2-bit example of section 4.3: c944f9 holds 1,2,0,3,0,1,0,1,1,2,3,3")
    func twoBitExample() throws {
        let vector = TokenStatusListVectors.bytes("status_list_encoding2")
        let list = try StatusList(cbor: CBOR.decode(vector), at: .root)
        #expect(list.bits == 2)
        #expect(list.bytes == [0xc9, 0x44, 0xf9])
        #expect(try (0..<12).map { try list.value(at: UInt64($0)).rawValue } == [1, 2, 0, 3, 0, 1, 0, 1, 1, 2, 3, 3])
        #expect(throws: StatusListError(.indexOutOfRange, "")) { try list.value(at: 12) }
        #expect(list.cbor.encoded() == vector)
    }

    @Test("the appendix's 2^20-entry vectors: the listed entries, zero elsewhere, the last index and one past it",
          arguments: [("status_list_encoding1_long", 1), ("status_list_encoding2_long", 2), ("status_list_encoding4_long", 4),
                      ("status_list_encoding8_long", 8)])
    func longVectors(name: String, bits: Int) throws {
        let list = try StatusList(cbor: CBOR.decode(TokenStatusListVectors.bytes(name)), at: .root)
        let listed = TokenStatusListVectors.statuses(name)
        #expect(list.bits == bits)
        #expect(list.count == 1 << 20)
        for (index, value) in listed {
            #expect(try list.value(at: UInt64(index)).rawValue == value, "entry \(index)")
        }
        // Every entry, checked at once: the list the appendix describes, packed here.
        var values = [StatusValue](repeating: .valid, count: 1 << 20)
        for (index, value) in listed { values[index] = StatusValue(rawValue: value) }
        #expect(try StatusList(bits: bits, values: values).bytes == list.bytes)
        #expect(try list.value(at: UInt64((1 << 20) - 1)) == values[(1 << 20) - 1])
        #expect(throws: StatusListError(.indexOutOfRange, "")) { try list.value(at: 1 << 20) }
        #expect(throws: StatusListError(.indexOutOfRange, "")) { try list.value(at: .max) }
    }

    @Test("bits other than 1, 2, 4, 8 are rejected, decoded or built", arguments: [0, 3, 5, 16])
    func badBits(bits: Int) throws {
        let map: CBOR = ["bits": CBOR(bits), "lst": .byteString(try ZlibDeflater.deflate([0]))]
        #expect(throws: StatusListError(.invalidBits, "")) { try StatusList(cbor: map, at: .root) }
        #expect(throws: StatusListError(.invalidBits, "")) { try StatusList(bits: bits, bytes: [0]) }
    }

    @Test("bits 1, 2, 4 and 8 decode and build", arguments: StatusList.allowedBits)
    func goodBits(bits: Int) throws {
        let values = (0..<40).map { StatusValue(rawValue: UInt8($0 % (1 << bits))) }
        let built = try StatusList(bits: bits, values: values)
        let decoded = try StatusList(cbor: CBOR.decode(built.cbor.encoded()), at: .root)
        #expect(decoded == built)
        #expect(try (0..<40).map { try decoded.value(at: UInt64($0)) } == values)
    }

    @Test("malformed maps: not a map, bits not an integer, lst missing or not bytes, aggregation_uri not text")
    func malformed() throws {
        let lst = CBOR.byteString(try ZlibDeflater.deflate([0]))
        #expect(throws: StatusListError(.invalidStatusList, "")) { try StatusList(cbor: [1, 2], at: .root) }
        #expect(throws: StatusListError(.invalidStatusList, "")) { try StatusList(cbor: ["lst": lst], at: .root) }
        #expect(throws: StatusListError(.invalidBits, "")) { try StatusList(cbor: ["bits": "1", "lst": lst], at: .root) }
        #expect(throws: StatusListError(.invalidBits, "")) { try StatusList(cbor: ["bits": -1, "lst": lst], at: .root) }
        #expect(throws: StatusListError(.invalidStatusList, "")) { try StatusList(cbor: ["bits": 1], at: .root) }
        #expect(throws: StatusListError(.invalidStatusList, "")) { try StatusList(cbor: ["bits": 1, "lst": "78da"], at: .root) }
        #expect(throws: StatusListError(.invalidStatusList, "")) {
            try StatusList(cbor: ["bits": 1, "lst": lst, "aggregation_uri": 7], at: .root)
        }
        #expect(throws: StatusListError(.notZlib, "")) { try StatusList(cbor: ["bits": 1, "lst": .byteString([0xdb, 0xb9, 0x18, 0x00])], at: .root) }
    }

    @Test("aggregation_uri and unknown entries are kept and written back in order")
    func keepsEntries() throws {
        let lst = CBOR.byteString(try ZlibDeflater.deflate([0xff]))
        let map: CBOR = ["bits": 1, "lst": lst, "aggregation_uri": "https://example.com/aggregation", "future": [1, 2]]
        let list = try StatusList(cbor: map, at: .root)
        #expect(list.aggregationURI == "https://example.com/aggregation")
        #expect(list.otherEntries.count == 1)
        #expect(list.cbor == map)
    }

    @Test("a value that does not fit in bits is refused when building")
    func valueTooLarge() {
        #expect(throws: StatusListError(.invalidStatusValue, "")) { try StatusList(bits: 2, values: [.valid, StatusValue(rawValue: 4)]) }
        #expect(throws: StatusListError(.invalidStatusValue, "")) { try StatusList(bits: 1, values: [.suspended]) }
    }

    @Test("the decompressed cap: a list of exactly the limit builds and decodes, one byte more is refused")
    func decompressedLimit() throws {
        let limit = StatusListLimits.decompressedBytes
        let atCap = try StatusList(bits: 8, bytes: [UInt8](repeating: 0, count: limit))
        #expect(try StatusList(cbor: atCap.cbor, at: .root).count == limit)
        #expect(throws: StatusListError(.decompressedTooLarge, "")) { try StatusList(bits: 8, bytes: [UInt8](repeating: 0, count: limit + 1)) }
        let bomb: CBOR = ["bits": 1, "lst": .byteString(try ZlibDeflater.deflate([UInt8](repeating: 0, count: limit + 1)))]
        #expect(throws: StatusListError(.decompressedTooLarge, "")) { try StatusList(cbor: bomb, at: .root) }
    }

    @Test("status values of section 7.1")
    func statusValues() {
        #expect(StatusValue.valid.kind == .valid)
        #expect(StatusValue.invalid.kind == .invalid)
        #expect(StatusValue.suspended.kind == .suspended)
        #expect([0x03, 0x0c, 0x0d, 0x0e, 0x0f].allSatisfy { StatusValue(rawValue: $0).kind == .applicationSpecific })
        #expect([0x04, 0x0b, 0x10, 0xff].allSatisfy { StatusValue(rawValue: $0).kind == .reserved })
        #expect(StatusValue.suspended.description == "SUSPENDED")
        #expect(StatusValue(rawValue: 0x0c).description == "0x0c (application specific)")
    }
}
