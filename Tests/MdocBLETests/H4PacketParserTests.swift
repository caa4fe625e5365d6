@testable import MdocBLE
import Testing

@Suite("H4 packet framing (Core Vol 4 Part A 2)")
struct H4PacketParserTests {
    /// A command, an event, ACL data, a synchronous and an ISO packet, each with its indicator.
    static let packets: [[UInt8]] = [
        HCIPacket.command(.reset).h4Bytes,
        HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]).h4Bytes,
        HCIPacket.aclData(HCIACLData(handle: 0x0040, packetBoundary: .firstFlushable, data: Array(0..<27))).h4Bytes,
        [0x03, 0x01, 0x00, 0x02, 0xAA, 0xBB],
        [0x05, 0x01, 0x00, 0x03, 0x00, 1, 2, 3],
        HCIPacket.event(code: 0x3E, parameters: [UInt8](repeating: 7, count: 255)).h4Bytes,
    ]

    @Test("packets fed one byte at a time come out whole and in order")
    func byteAtATime() throws {
        var parser = H4PacketParser()
        var out: [[UInt8]] = []
        for byte in Self.packets.joined() {
            out += try parser.append([byte])
        }
        #expect(out == Self.packets)
        #expect(parser.pendingCount == 0)
    }

    @Test("any split of the stream gives the same packets", arguments: [1, 2, 3, 5, 7, 64, 4096])
    func anySplit(size: Int) throws {
        var parser = H4PacketParser()
        let stream = Array(Self.packets.joined())
        var out: [[UInt8]] = []
        for start in stream.indices where start % size == 0 {
            out += try parser.append(stream[start..<min(start + size, stream.count)])
        }
        #expect(out == Self.packets)
    }

    @Test("a partial packet waits for the rest")
    func partial() throws {
        var parser = H4PacketParser()
        let packet = Self.packets[2]
        #expect(try parser.append(packet.dropLast()).isEmpty)
        #expect(parser.pendingCount == packet.count - 1)
        #expect(try parser.append([packet.last!]) == [packet])
    }

    @Test("an unknown indicator fails the stream, and it stays failed")
    func unknownIndicator() throws {
        var parser = H4PacketParser()
        #expect(throws: BLEError(.malformedPacket, "")) { try parser.append([0x06, 0x00]) }
        #expect(throws: BLEError(.malformedPacket, "")) { try parser.append(HCIPacket.command(.reset).h4Bytes) }
    }

    @Test("ACL data up to maximumACLDataLength is taken; one octet more fails")
    func aclLimit() throws {
        let limit = H4PacketParser.maximumACLDataLength
        var parser = H4PacketParser()
        let largest = HCIPacket.aclData(HCIACLData(handle: 1, packetBoundary: .firstFlushable,
                                                   data: [UInt8](repeating: 1, count: limit))).h4Bytes
        #expect(try parser.append(largest) == [largest])
        let over = UInt16(limit + 1)
        do {
            _ = try parser.append([0x02, 0x01, 0x20, UInt8(over & 0xFF), UInt8(over >> 8)])
            Issue.record("an ACL packet of \(limit + 1) octets was accepted")
        } catch {
            #expect(error.code == .malformedPacket)
            #expect(error.reason.contains("\(limit + 1)"))
        }
    }

    @Test("an ISO length with the reserved top bits set fails")
    func isoLimit() throws {
        var parser = H4PacketParser()
        #expect(try parser.append([0x05, 0x01, 0x00, 0xFF, 0x3F]).isEmpty)
        var other = H4PacketParser()
        #expect(throws: BLEError(.malformedPacket, "")) { try other.append([0x05, 0x01, 0x00, 0x00, 0x40]) }
    }

    @Test("decoded packets round-trip through their H4 bytes")
    func decode() throws {
        for bytes in Self.packets {
            #expect(try HCIPacket(h4: bytes).h4Bytes == bytes)
        }
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIPacket(h4: [0x04, 0x0E, 0x05, 0x01]) }
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIPacket(h4: [0x02, 0x01, 0x00, 0x05, 0x00, 1]) }
        #expect(throws: BLEError(.malformedPacket, "")) { try HCIPacket(h4: []) }
    }
}
