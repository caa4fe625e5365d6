import MdocBLE
import NIOCore

/// Cuts an HCI UART transport byte stream (H4) into packets: an indicator octet, the packet's
/// header, then as many payload octets as the header declares (Bluetooth Core Vol 4 Part A 2,
/// Part E 5.4). Bytes may arrive in any pieces, one at a time included.
///
/// The stream has no resynchronisation marker, so an unknown indicator or a length above the
/// limits below cannot be skipped: decoding fails with `malformedPacket`, and the transport
/// closes.
public struct H4PacketDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = HCIPacket

    /// The longest ACL data payload accepted from a controller, 1024 octets: LE controllers
    /// send at most 251 (LE Data Length Extension, Core Vol 6 Part B 2.4.2.21) and controllers
    /// that do not fragment towards the host (Bumble) whole L2CAP PDUs of an ATT channel, at
    /// most 521; Linux bounds ACL frames the same way (HCI_MAX_ACL_SIZE).
    public static let maximumACLDataLength = 1024
    /// The longest ISO data payload: its length field has 14 bits (Core Vol 4 Part E 5.4.5).
    public static let maximumISODataLength = 0x3FFF

    /// A decoder at the start of a stream.
    public init() {}

    /// Takes the next whole packet off `buffer`, when it has arrived.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = try Self.packetLength(at: buffer), let bytes = buffer.readBytes(length: length) else {
            return .needMoreData
        }
        context.fireChannelRead(Self.wrapInboundOut(try HCIPacket(h4: bytes)))
        return .continue
    }

    /// A packet cut short by the end of the stream is dropped with it.
    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }

    /// The whole length of the packet at the start of `buffer` (indicator included), or nil when
    /// its header has not fully arrived. Throws `malformedPacket` for an unknown indicator or a
    /// declared length above the limits.
    static func packetLength(at buffer: ByteBuffer) throws(BLEError) -> Int? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard let indicator = HCIPacketIndicator(rawValue: first) else {
            throw malformed("unknown H4 packet indicator 0x\(first < 0x10 ? "0" : "")\(String(first, radix: 16)) (expected 0x01 to 0x05)")
        }
        let layout = indicator.headerLayout
        guard buffer.readableBytes >= 1 + layout.length else { return nil }
        let field = buffer.readerIndex + 1 + layout.lengthOffset
        let payload = layout.lengthWidth == 2
            ? Int(buffer.getInteger(at: field, endianness: .little, as: UInt16.self) ?? 0)
            : Int(buffer.getInteger(at: field, as: UInt8.self) ?? 0)
        switch indicator {
        case .aclData where payload > maximumACLDataLength:
            throw malformed("an ACL data packet declares \(payload) octets, above the \(maximumACLDataLength) accepted")
        case .isoData where payload > maximumISODataLength:
            throw malformed("an ISO data packet declares \(payload) octets, above the 14-bit maximum \(maximumISODataLength)")
        default:
            return 1 + layout.length + payload
        }
    }

    private static func malformed(_ reason: String) -> BLEError {
        BLEError(.malformedPacket, "HCI stream out of step: \(reason)")
    }
}
