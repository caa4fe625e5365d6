import Logging
import NIOCore
import MdocBLE

/// Logs every HCI packet a host exchanges with its controller at trace level and, with a
/// ``BTSnoopWriter``, writes it to a btsnoop file.
final class HCIPacketRecorder: ChannelDuplexHandler {
    typealias InboundIn = HCIPacket
    typealias InboundOut = HCIPacket
    typealias OutboundIn = HCIPacket
    typealias OutboundOut = HCIPacket

    private let snoop: BTSnoopWriter?
    private let logger: Logger

    init(snoop: BTSnoopWriter?, logger: Logger) {
        self.snoop = snoop
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let packet = unwrapInboundIn(data)
        logger.trace("HCI <", metadata: ["packet": "\(Self.hex(packet.h4Bytes))"])
        snoop?.record(packet, direction: .received)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let packet = unwrapOutboundIn(data)
        logger.trace("HCI >", metadata: ["packet": "\(Self.hex(packet.h4Bytes))"])
        snoop?.record(packet, direction: .sent)
        context.write(data, promise: promise)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
