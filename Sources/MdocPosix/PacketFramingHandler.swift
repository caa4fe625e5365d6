import MdocBLE
import NIOCore

/// Keeps packet boundaries on a descriptor that carries one packet per read and per write: an
/// AF_UNIX SOCK_SEQPACKET socket (the `sim` bearer) or the Linux HCI user channel.
///
/// A read of more than ``maximumPacketSize`` octets is a packet no peer may send: the channel
/// fails with the error ``oversized`` makes and closes (the channel's receive allocator gives
/// reads room for one octet more, so such a packet shows). Writes go to the descriptor one at a
/// time, each flushed alone: SwiftNIO gathers pending writes into one writev(2), which on such a
/// descriptor would be a single packet.
package final class PacketFramingHandler: ChannelDuplexHandler {
    package typealias InboundIn = ByteBuffer
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    /// The largest packet either way.
    package let maximumPacketSize: Int
    /// The error of a packet above ``maximumPacketSize``, given its size.
    private let oversized: (Int) -> BLEError
    /// Written and not flushed yet.
    private var unflushed = CircularBuffer<(ByteBuffer, EventLoopPromise<Void>?)>()
    /// Flushed and waiting for the packet before them to leave.
    private var queued = CircularBuffer<(ByteBuffer, EventLoopPromise<Void>?)>()
    private var isWriting = false

    /// A handler of packets up to `maximumPacketSize` octets; `oversized` makes the error of a
    /// larger one.
    package init(maximumPacketSize: Int, oversized: @escaping (Int) -> BLEError) {
        self.maximumPacketSize = maximumPacketSize
        self.oversized = oversized
    }

    /// The receive allocator such a channel needs: room for a packet of `maximumPacketSize`
    /// octets and one more.
    package static func receiveAllocator(maximumPacketSize: Int) -> FixedSizeRecvByteBufferAllocator {
        FixedSizeRecvByteBufferAllocator(capacity: maximumPacketSize + 1)
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let packet = unwrapInboundIn(data)
        guard packet.readableBytes <= maximumPacketSize else {
            context.fireErrorCaught(oversized(packet.readableBytes))
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        unflushed.append((unwrapOutboundIn(data), promise))
    }

    package func flush(context: ChannelHandlerContext) {
        while let next = unflushed.popFirst() { queued.append(next) }
        writeNext(context: context)
    }

    package func channelInactive(context: ChannelHandlerContext) {
        failPending(ChannelError.ioOnClosedChannel)
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        failPending(ChannelError.ioOnClosedChannel)
    }

    /// Writes the next queued packet alone once the one before it has left.
    private func writeNext(context: ChannelHandlerContext) {
        guard !isWriting, let (packet, promise) = queued.popFirst() else { return }
        isWriting = true
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
            self.isWriting = false
            promise?.completeWith(result)
            if case .success = result { self.writeNext(context: context) } else { self.failPending(ChannelError.ioOnClosedChannel) }
        }
        context.writeAndFlush(wrapOutboundOut(packet), promise: written)
    }

    private func failPending(_ error: any Error) {
        while let (_, promise) = unflushed.popFirst() { promise?.fail(error) }
        while let (_, promise) = queued.popFirst() { promise?.fail(error) }
    }
}
