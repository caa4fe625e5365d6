import MdocCBOR
import Testing

/// Decoded byte strings are views of the input, indexed from zero, compared by content.
struct CBORBytesTests {
    /// The address of `bytes`' first byte, to tell a view from a copy.
    private func address(_ bytes: CBORBytes) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("a decoded byte string is a view of the input, not a copy")
    func decodedByteStringsAreViews() throws {
        // [h'0102', 24(<<h'03'>>)]
        let input = try bytes("82 42 0102 d818 41 03")
        guard case .array(let items) = try CBOR.decode(input), case .byteString(let first) = items[0],
              case .tagged(24, .byteString(let second)) = items[1] else {
            Issue.record("unexpected structure")
            return
        }
        input.withUnsafeBytes { buffer in
            #expect(address(first) == UnsafeRawPointer(buffer.baseAddress! + 2))
            #expect(address(second) == UnsafeRawPointer(buffer.baseAddress! + 7))
        }
        // The content of an embedded item decodes into views of the same input.
        let embedded = try CBOR.decode(second)
        #expect(embedded == .unsignedInt(3))
    }

    @Test("indices start at zero, slices too; equality and hashing see only the bytes")
    func zeroBasedAndComparedByContent() throws {
        let input = try bytes("43 010203")
        guard case .byteString(let view) = try CBOR.decode(input) else {
            Issue.record("not a byte string")
            return
        }
        #expect(view.startIndex == 0 && view.endIndex == 3)
        #expect(view[0] == 1 && view[2] == 3)
        let tail = view[1..<3]
        #expect(tail.startIndex == 0 && tail.count == 2 && tail[0] == 2)
        #expect(view == CBORBytes([1, 2, 3]))
        #expect(view == [1, 2, 3] as [UInt8])
        #expect(Set([view, CBORBytes([1, 2, 3])]).count == 1)
        #expect(Array(view) == [1, 2, 3])
        #expect(CBOR.byteString([1, 2, 3]) == .byteString(view))
    }

    @Test("an indefinite-length byte string is joined into bytes of its own")
    func chunksAreJoined() throws {
        let decoded = try CBOR.decode(try bytes("5f 42 0102 41 03 ff"))
        #expect(decoded == .byteString([1, 2, 3]))
    }

    @Test("taggedBytes is the received item when its heads are the preferred ones, a view of the input")
    func taggedBytesOfAPreferredItem() throws {
        // [24(<<1>>)]
        let input = try bytes("81 d818 41 01")
        let embedded = try EmbeddedCBOR<CBOR>(cbor: try CBOR.decode(input).array(at: .root)[0], at: .root)
        #expect(embedded.taggedBytes == [0xd8, 0x18, 0x41, 0x01] as [UInt8])
        input.withUnsafeBytes { buffer in
            #expect(address(embedded.taggedBytes) == UnsafeRawPointer(buffer.baseAddress! + 1))
        }
    }

    @Test("taggedBytes of an item received with longer heads is the preferred encoding (8.1)")
    func taggedBytesOfANonPreferredItem() throws {
        // 24(<<1>>) with the length in two bytes, and with the tag in three.
        for input in [try bytes("d818 5801 01"), try bytes("d90018 41 01")] {
            let embedded = try EmbeddedCBOR<CBOR>(cbor: try CBOR.decode(input), at: .root)
            #expect(embedded.bytes == [0x01] as [UInt8])
            #expect(embedded.taggedBytes == [0xd8, 0x18, 0x41, 0x01] as [UInt8])
        }
    }

    @Test("an embedded item with a tag head and a length head of 9 bytes each is read where it lies")
    func embeddedItemWithTheLongestHeads() throws {
        // 24(<<1>>), the tag and the length each in a head of 9 bytes: 18 bytes of heads.
        let input = try bytes("db 0000000000000018 5b 0000000000000001 01")
        let embedded = try EmbeddedCBOR<CBOR>(cbor: try CBOR.decode(input), at: .root)
        #expect(embedded.value == .unsignedInt(1))
        input.withUnsafeBytes { buffer in
            #expect(address(embedded.bytes) == UnsafeRawPointer(buffer.baseAddress! + 18))
        }
        #expect(embedded.taggedBytes == [0xd8, 0x18, 0x41, 0x01] as [UInt8])
    }

    @Test("an embedded item with no content decodes as a byte string and is no data item")
    func emptyEmbeddedItem() throws {
        for input in [try bytes("d818 40"), try bytes("81 d818 40"), try bytes("d818 5800")] {
            let decoded = try CBOR.decode(input)
            let item = decoded.arrayValue?.first ?? decoded
            #expect(item == .tagged(24, .byteString([])))
            #expect(throws: CBORError.self) { try EmbeddedCBOR<CBOR>(cbor: item, at: .root) }
        }
    }

    @Test("a view is 24 bytes: its array, where the bytes begin, and where they end with the heads of their embedding")
    func viewSize() {
        #expect(MemoryLayout<CBORBytes>.size == 24)
    }

    @Test("a built embedded item's taggedBytes are its encoding")
    func taggedBytesOfABuiltItem() {
        let embedded = EmbeddedCBOR<CBOR>(.unsignedInt(1))
        #expect(embedded.taggedBytes == CBORBytes(embedded.encoded()))
    }
}
