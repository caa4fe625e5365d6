@testable import MdocBLE
@testable import MdocLEHost
import NIOCore
import NIOEmbedded
import Testing

@Suite("H4 packet framing (Core Vol 4 Part A 2)")
struct H4PacketDecoderTests {
    /// A command, an event, ACL data, a synchronous and an ISO packet, each with its indicator.
    static let packets: [[UInt8]] = [
        HCIPacket.command(.reset).h4Bytes,
        HCIPacket.event(code: 0x0E, parameters: [0x01, 0x03, 0x0C, 0x00]).h4Bytes,
        HCIPacket.aclData(HCIACLData(handle: 0x0040, packetBoundary: .firstFlushable, data: Array(0..<27))).h4Bytes,
        [0x03, 0x01, 0x00, 0x02, 0xAA, 0xBB],
        [0x05, 0x01, 0x00, 0x03, 0x00, 1, 2, 3],
        HCIPacket.event(code: 0x3E, parameters: [UInt8](repeating: 7, count: 255)).h4Bytes,
    ]

    /// A channel whose inbound bytes go through the decoder, as a controller's stream does.
    static func decodingChannel() -> EmbeddedChannel {
        EmbeddedChannel(handler: ByteToMessageHandler(H4PacketDecoder()))
    }

    /// Writes `piece` into `channel`; the H4 bytes of the packets that came out.
    static func feed(_ piece: some Collection<UInt8>, to channel: EmbeddedChannel) throws -> [[UInt8]] {
        try channel.writeInbound(ByteBuffer(bytes: piece))
        var out: [[UInt8]] = []
        while let packet = try channel.readInbound(as: HCIPacket.self) { out.append(packet.h4Bytes) }
        return out
    }

    @Test("packets fed one byte at a time come out whole and in order")
    func byteAtATime() throws {
        let channel = Self.decodingChannel()
        var out: [[UInt8]] = []
        for byte in Self.packets.joined() {
            out += try Self.feed([byte], to: channel)
        }
        #expect(out == Self.packets)
    }

    @Test("any split of the stream gives the same packets", arguments: [1, 2, 3, 5, 7, 64, 4096])
    func anySplit(size: Int) throws {
        let channel = Self.decodingChannel()
        let stream = Array(Self.packets.joined())
        var out: [[UInt8]] = []
        for start in stream.indices where start % size == 0 {
            out += try Self.feed(stream[start..<min(start + size, stream.count)], to: channel)
        }
        #expect(out == Self.packets)
    }

    @Test("a partial packet waits for the rest")
    func partial() throws {
        let channel = Self.decodingChannel()
        let packet = Self.packets[2]
        #expect(try Self.feed(packet.dropLast(), to: channel).isEmpty)
        #expect(try Self.feed([packet.last!], to: channel) == [packet])
    }

    @Test("an unknown indicator fails the stream, and it stays failed")
    func unknownIndicator() throws {
        let channel = Self.decodingChannel()
        #expect(throws: BLEError(.malformedPacket, "")) { try Self.feed([0x06, 0x00], to: channel) }
        #expect(throws: (any Error).self) { try Self.feed(HCIPacket.command(.reset).h4Bytes, to: channel) }
    }

    @Test("ACL data up to maximumACLDataLength is taken; one octet more fails")
    func aclLimit() throws {
        let limit = H4PacketDecoder.maximumACLDataLength
        let largest = HCIPacket.aclData(HCIACLData(handle: 1, packetBoundary: .firstFlushable,
                                                   data: [UInt8](repeating: 1, count: limit))).h4Bytes
        #expect(try Self.feed(largest, to: Self.decodingChannel()) == [largest])
        let over = UInt16(limit + 1)
        do {
            _ = try H4PacketDecoder.packetLength(at: ByteBuffer(bytes: [0x02, 0x01, 0x20, UInt8(over & 0xFF), UInt8(over >> 8)]))
            Issue.record("an ACL packet of \(limit + 1) octets was accepted")
        } catch {
            #expect(error.code == .malformedPacket)
            #expect(error.reason.contains("\(limit + 1)"))
        }
    }

    @Test("an ISO length with the reserved top bits set fails")
    func isoLimit() throws {
        #expect(try Self.feed([0x05, 0x01, 0x00, 0xFF, 0x3F], to: Self.decodingChannel()).isEmpty)
        #expect(throws: BLEError(.malformedPacket, "")) {
            try Self.feed([0x05, 0x01, 0x00, 0x00, 0x40], to: Self.decodingChannel())
        }
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
