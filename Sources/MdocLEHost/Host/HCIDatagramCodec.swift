import MdocBLE
import NIOCore

/// HCI packets on a descriptor that carries one per read and per write, with its H4 indicator
/// first: the Linux HCI user channel (net/bluetooth/hci_sock.c).
final class HCIDatagramCodec: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = HCIPacket
    typealias OutboundIn = HCIPacket
    typealias OutboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(unwrapInboundIn(data).readableBytesView)
        do {
            context.fireChannelRead(wrapInboundOut(try HCIPacket(h4: bytes)))
        } catch {
            context.fireErrorCaught(error)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(wrapOutboundOut(ByteBuffer(bytes: unwrapOutboundIn(data).h4Bytes)), promise: promise)
    }
}
