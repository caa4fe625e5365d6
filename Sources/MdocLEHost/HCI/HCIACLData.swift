import MdocBLE

/// An HCI ACL Data packet: a 12-bit connection handle, the Packet_Boundary and Broadcast
/// flags, and a fragment of an L2CAP PDU (Bluetooth Core Vol 4 Part E 5.4.2).
public struct HCIACLData: Sendable, Hashable {
    /// The Packet_Boundary flag (Core Vol 4 Part E 5.4.2).
    public enum PacketBoundary: UInt8, Sendable, Hashable {
        /// First fragment of a non-automatically-flushable PDU: what a host sends on LE.
        case firstNonFlushable = 0b00
        /// A continuing fragment.
        case continuing = 0b01
        /// First fragment of an automatically flushable PDU: what controllers send to the host.
        case firstFlushable = 0b10
        /// A complete automatically flushable PDU (not used on LE).
        case complete = 0b11
    }

    /// The connection handle, 0x0000 to 0x0EFF (Core Vol 4 Part E 5.4.2).
    public let handle: UInt16
    /// Where this fragment is in its L2CAP PDU.
    public let packetBoundary: PacketBoundary
    /// The Broadcast flag; 0 (point to point) on LE.
    public let broadcast: UInt8
    /// The fragment.
    public let data: [UInt8]

    /// A packet on `handle` carrying `data`.
    public init(handle: UInt16, packetBoundary: PacketBoundary, broadcast: UInt8 = 0, data: [UInt8]) {
        self.handle = handle & 0x0FFF
        self.packetBoundary = packetBoundary
        self.broadcast = broadcast & 0x03
        self.data = data
    }

    /// Decodes a packet without its H4 indicator. Throws `malformedPacket` when the length
    /// does not match.
    public init(packet: [UInt8]) throws(BLEError) {
        var reader = PacketReader(packet, packetName: "HCI ACL data packet")
        let header = try reader.uint16()
        let length = Int(try reader.uint16())
        guard reader.remaining == length else {
            throw BLEError(.malformedPacket,
                           "HCI ACL data packet on handle 0x\(String(header & 0x0FFF, radix: 16)): declares \(length) octets, carries \(reader.remaining)")
        }
        self.init(handle: header & 0x0FFF,
                  packetBoundary: PacketBoundary(rawValue: UInt8((header >> 12) & 0x03)) ?? .continuing,
                  broadcast: UInt8(header >> 14), data: reader.rest())
    }

    /// The packet without its H4 indicator.
    public var packet: [UInt8] {
        let header = handle | UInt16(packetBoundary.rawValue) << 12 | UInt16(broadcast) << 14
        let length = UInt16(data.count)
        return [UInt8(header & 0xFF), UInt8(header >> 8), UInt8(length & 0xFF), UInt8(length >> 8)] + data
    }

    /// The octets of an ACL data packet header (handle and flags, length).
    public static let headerLength = 4
}
