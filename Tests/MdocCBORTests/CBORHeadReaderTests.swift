@testable import MdocCBOR
import Testing

@Suite("CBORHeadReader: reads what it handles in full, and stays put on anything else")
struct CBORHeadReaderTests {
    @Test("Heads of every argument length read as the decoder reads them")
    func argumentLengths() throws {
        // 5 as 05, 18 05, 19 0005, 1a 00000005 and 1b 0000000000000005: all well-formed.
        for hex in ["05", "1805", "190005", "1a00000005", "1b0000000000000005"] {
            CBORHeadReader.read(CBORBytes(try bytes(hex))) { reader in
                #expect(reader.readUnsignedInt() == 5, "\(hex)")
                #expect(reader.isAtEnd)
                #expect(reader.itemCount == 1)
            }
        }
        // Arguments whose bytes all differ, read in the order sent.
        for (hex, argument) in [("18fe", 0xfe), ("1901fe", 0x01fe), ("1a010203fe", 0x0102_03fe), ("1b01020304050607fe", 0x0102_0304_0506_07fe)] as [(String, UInt64)] {
            CBORHeadReader.read(CBORBytes(try bytes(hex))) { reader in
                #expect(reader.readUnsignedInt() == argument, "\(hex)")
            }
        }
        CBORHeadReader.read(CBORBytes(try bytes("a2 63616263 5803010203 7818 6162636465666768696a6b6c6d6e6f707172737475767778"))) { reader in
            #expect(reader.readMapCount() == 2)
            #expect(reader.readText(among: ["ab", "abc"]) == 1)
            let byteString = reader.readByteString()
            #expect(byteString == [1, 2, 3])
            #expect(reader.readText() == "abcdefghijklmnopqrstuvwx")
            #expect(reader.isAtEnd)
            #expect(reader.itemCount == 4)
        }
    }

    @Test("A byte string read is a view of the input")
    func byteStringIsAView() throws {
        let input = try bytes("43 0a0b0c")
        let read = CBORHeadReader.read(CBORBytes(input)) { $0.readByteString() }
        let content = try #require(read)
        #expect(content.storage == input)
        #expect(content.range == 1..<4)
    }

    @Test("Other types, indefinite lengths, reserved values, cut heads and bad UTF-8 read nothing")
    func stopsOnAnythingElse() throws {
        let cases: [(String, (inout CBORHeadReader) -> Bool)] = [
            ("20", { $0.readUnsignedInt() != nil }),  // -1
            ("1c", { $0.readUnsignedInt() != nil }),  // reserved additional information 28
            ("19 01", { $0.readUnsignedInt() != nil }),  // head cut short
            ("5f 41 00 ff", { $0.readByteString() != nil }),  // indefinite-length byte string
            ("43 0102", { $0.readByteString() != nil }),  // content cut short
            ("62 c328", { $0.readText() != nil }),  // invalid UTF-8
            ("62 6162", { $0.readText(among: ["ac"]) != nil }),  // none of the candidates
            ("41 61", { $0.readText() != nil }),  // a byte string
            ("bf ff", { $0.readMapCount() != nil }),  // indefinite-length map
            ("a1 01", { $0.readItem(depth: 0) != nil }),  // a map cut short
        ]
        for (hex, read) in cases {
            CBORHeadReader.read(CBORBytes(try bytes(hex))) { reader in
                #expect(!read(&reader), "\(hex)")
                #expect(reader.offset == 0, "\(hex)")
                #expect(reader.itemCount == 0, "\(hex)")
            }
        }
    }

    @Test("A whole item reads with the decoder, within the items and depth the limits leave")
    func items() throws {
        let limits = CBORLimits(maximumDepth: 3, maximumItemCount: 5, maximumInputSize: 64)
        // [[1]] then 2: four items, two levels.
        CBORHeadReader.read(CBORBytes(try bytes("81 81 01 02")), limits: limits) { reader in
            #expect(reader.readItem(depth: 1) == [[1]])
            #expect(reader.itemCount == 3)
            #expect(reader.readUnsignedInt() == 2)
        }
        // One level fewer is left at depth 2: [[1]] no longer reads.
        CBORHeadReader.read(CBORBytes(try bytes("81 81 01")), limits: limits) { reader in
            #expect(reader.readItem(depth: 2) == nil)
            #expect(reader.readItem(depth: 1) == [[1]])
        }
        // The sixth item is one too many, counted across reads.
        CBORHeadReader.read(CBORBytes(try bytes("83 01 02 03 04")), limits: limits) { reader in
            #expect(reader.readItem(depth: 0) == [1, 2, 3])
            #expect(reader.readUnsignedInt() == 4)
            #expect(reader.itemCount == 5)
        }
        CBORHeadReader.read(CBORBytes(try bytes("84 01 02 03 04 05")), limits: limits) { reader in
            #expect(reader.readItem(depth: 0) == [1, 2, 3, 4])
            #expect(reader.readUnsignedInt() == nil)
            #expect(reader.readItem(depth: 0) == nil)
        }
        // Integers and strings read as items are the decoder's values, byte strings views.
        let scalars = try bytes("83 18 2a 63 616263 42 0102")
        let array = CBORHeadReader.read(CBORBytes(scalars)) { $0.readItem(depth: 0) }
        #expect(array == (try CBOR.decode(scalars)))
        let elements = CBORHeadReader.read(CBORBytes(Array(scalars.dropFirst()))) { reader in
            [reader.readItem(depth: 0), reader.readItem(depth: 0), reader.readItem(depth: 0), reader.readItem(depth: 0)]
        }
        #expect(elements == [42, "abc", .byteString([1, 2]), nil])
        // A declared count reserves no more than the bytes left can hold and the items left.
        CBORHeadReader.read(CBORBytes(try bytes("9a 00010000 01 02 03 04 05 06 07 08 09")), limits: limits) { reader in
            #expect(reader.readArrayCount() == nil)  // 65,536 elements declared, 9 bytes follow
            #expect(reader.reservation(65_536, minimumByteCount: 3) == 4)  // 14 bytes left
            #expect(reader.reservation(65_536, minimumByteCount: 1) == 5)
            #expect(reader.reservation(2, minimumByteCount: 1) == 2)
        }
        // An input above the size limit reads nothing.
        CBORHeadReader.read(CBORBytes([UInt8](repeating: 0, count: 65)), limits: limits) { reader in
            #expect(reader.readUnsignedInt() == nil)
            #expect(reader.readItem(depth: 0) == nil)
        }
    }

    @Test("A map of known text keys reads each key's value in the order received, each key once")
    func mapOfKnownKeys() throws {
        let keys: CBORTextKeys = ["a", "b", "c"]
        // {"b": 2, "a": 1}
        var received: [Int] = []
        let read = CBORHeadReader.read(CBORBytes(try bytes("a2 6162 02 6161 01"))) { reader in
            let read = reader.readMap(keyedBy: keys) { key, reader in
                received.append(key)
                return reader.readUnsignedInt() == UInt64(key + 1)
            }
            #expect(reader.isAtEnd)
            return read
        }
        #expect(read)
        #expect(received == [1, 0])

        let refused: [(String, Int?)] = [
            ("a2 6161 01 6161 01", nil),  // "a" twice
            ("a1 6164 01", nil),  // "d" is none of the keys
            ("a1 01 01", nil),  // an integer key
            ("a4 6161 01 6162 02 6163 03 6161 01", nil),  // more entries than keys
            ("a1 6161 01", 2),  // one entry where two are required
            ("a2 6161 01 6162 02", 3),  // two where three are
            ("a1 6161 02", nil),  // the value's own read fails
            ("81 6161", nil),  // an array
        ]
        for (hex, entryCount) in refused {
            CBORHeadReader.read(CBORBytes(try bytes(hex))) { reader in
                #expect(!reader.readMap(keyedBy: keys, entryCount: entryCount) { key, reader in
                    reader.readUnsignedInt() == UInt64(key + 1)
                }, "\(hex)")
            }
        }
        // The entry count required, met.
        CBORHeadReader.read(CBORBytes(try bytes("a2 6161 01 6163 03"))) { reader in
            #expect(reader.readMap(keyedBy: keys, entryCount: 2) { key, reader in reader.readUnsignedInt() == UInt64(key + 1) })
        }
    }

    @Test("An embedded item's content reads with a reader of its own, under its own limits, as a reader of those bytes alone")
    func embeddedItem() throws {
        // [24(<<{"a": 1}>>), 2]: the embedded map, then an item after it.
        let input = CBORBytes(try bytes("82 d818 44 a1616101 02"))
        let read: (content: CBORBytes, key: Int?, value: UInt64?, atEnd: Bool, itemCount: Int, next: UInt64?)? = CBORHeadReader.read(input) { reader in
            guard reader.readArrayCount() == 2, var (content, embedded) = reader.readEmbedded() else { return nil }
            let key = embedded.readMapCount() == 1 ? embedded.readText(among: ["a"]) : nil
            let value = embedded.readUnsignedInt()
            return (content, key, value, embedded.isAtEnd, embedded.itemCount, reader.readUnsignedInt())
        }
        let embedded = try #require(read)
        #expect(embedded.content == [0xa1, 0x61, 0x61, 0x01])
        #expect(embedded.content.receivedEmbedding == [0xd8, 0x18, 0x44, 0xa1, 0x61, 0x61, 0x01])
        #expect(embedded.key == 0 && embedded.value == 1 && embedded.atEnd)
        #expect(embedded.itemCount == 3)
        #expect(embedded.next == 2)

        // The content's own limits, not the enclosing reader's: three items where two are allowed.
        let limits = CBORLimits(maximumDepth: 3, maximumItemCount: 2, maximumInputSize: 64)
        CBORHeadReader.read(input) { reader in
            guard reader.readArrayCount() == 2, var (_, embedded) = reader.readEmbedded(limits: limits) else {
                Issue.record("not read")
                return
            }
            #expect(embedded.readMapCount() == 1 && embedded.readText(among: ["a"]) == 0)
            #expect(embedded.readUnsignedInt() == nil)
        }
        // Not an embedded item: nothing read.
        CBORHeadReader.read(CBORBytes(try bytes("44 a1616101"))) { reader in
            #expect(reader.readEmbedded() == nil)
            #expect(reader.offset == 0 && reader.itemCount == 0)
        }
    }
}
