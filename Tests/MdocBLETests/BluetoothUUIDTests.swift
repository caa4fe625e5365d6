@testable import MdocBLE
import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("BluetoothUUID: 16- and 128-bit forms, ATT byte order (Core Vol 3 Part B 2.5.1)")
struct BluetoothUUIDTests {
    @Test("a 16-bit UUID is 2 little-endian bytes and prints as 0xXXXX")
    func shortForm() {
        let uuid = BluetoothUUID(uint16: 0x2902)
        #expect(uuid.littleEndianBytes == [0x02, 0x29])
        #expect(uuid.description == "0x2902")
        #expect(BluetoothUUID(uint16: 0x0A).description == "0x000A")
        #expect(BluetoothUUID(littleEndianBytes: [0x03, 0x28]) == .characteristic)
        #expect(uuid.uuid == UUID(uuidString: "00002902-0000-1000-8000-00805F9B34FB"))
    }

    @Test("a 128-bit UUID is sent least significant byte first")
    func longForm() throws {
        let foundation = try #require(UUID(uuidString: "00000001-A123-48CE-896B-4C76973373E6"))
        let uuid = BluetoothUUID(foundation)
        let expected: [UInt8] = [0xE6, 0x73, 0x33, 0x97, 0x76, 0x4C, 0x6B, 0x89,
                                 0xCE, 0x48, 0x23, 0xA1, 0x01, 0x00, 0x00, 0x00]
        #expect(uuid.littleEndianBytes == expected)
        #expect(uuid.uint16 == nil)
        #expect(uuid.uuid == foundation)
        #expect(uuid.description == "00000001-A123-48CE-896B-4C76973373E6")
        #expect(BluetoothUUID(littleEndianBytes: expected) == uuid)
    }

    @Test("a 128-bit UUID on the Bluetooth Base UUID equals its 16-bit alias")
    func baseAlias() throws {
        let long = BluetoothUUID(try #require(UUID(uuidString: "00002800-0000-1000-8000-00805F9B34FB")))
        #expect(long == .primaryService)
        #expect(long.littleEndianBytes == [0x00, 0x28])
        let reversed = Array(BluetoothUUID.baseUUIDBytes.reversed())
        var bytes = reversed
        bytes[12] = 0x03
        bytes[13] = 0x28
        #expect(BluetoothUUID(littleEndianBytes: bytes) == .characteristic)
        // Not on the base (the top 16 bits are set): stays 128-bit.
        bytes[15] = 0x01
        #expect(BluetoothUUID(littleEndianBytes: bytes)?.uint16 == nil)
    }

    @Test("only 2 or 16 bytes make a UUID", arguments: [0, 1, 3, 4, 15, 17])
    func invalidLengths(count: Int) {
        #expect(BluetoothUUID(littleEndianBytes: [UInt8](repeating: 1, count: count)) == nil)
    }
}
