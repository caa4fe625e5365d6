import NIOCore
import MdocBLE

/// Writes HCI packets to an H4 byte stream: each packet with its indicator (Bluetooth Core Vol 4
/// Part A 2).
struct HCIPacketEncoder: MessageToByteEncoder, Sendable {
    typealias OutboundIn = HCIPacket

    func encode(data: HCIPacket, out: inout ByteBuffer) {
        out.writeBytes(data.h4Bytes)
    }
}
