import NIOCore

/// Fails a virtual card's connection when vpcd starts a frame and stops sending it: the rest of
/// a frame must keep coming, with no gap longer than a bound, or the run would wait for it as
/// long as the connection stays open. Between frames the connection may stay quiet for ever
/// (vpcd sends nothing while no application uses the reader). It follows the frames' lengths
/// (``VPICCFrame``) and passes the bytes on unchanged to the ``VPICCFrameDecoder`` after it.
final class VPICCFrameWatch: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let bound: TimeAmount
    /// The octets of the current frame's length read so far, when inside its length.
    private var lengthOctets: [UInt8] = []
    /// The octets of the current frame's payload still to come.
    private var payloadLeft = 0
    private var timer: Scheduled<Void>?

    /// A watch that fails the connection when a frame's octets stop for more than `bound`.
    init(bound: Duration) {
        self.bound = TimeAmount(bound)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        var index = bytes.readerIndex
        while index < bytes.writerIndex {
            if payloadLeft > 0 {
                let taken = min(payloadLeft, bytes.writerIndex - index)
                payloadLeft -= taken
                index += taken
            } else {
                lengthOctets.append(bytes.getInteger(at: index, as: UInt8.self)!)
                index += 1
                if lengthOctets.count == VPICCFrame.lengthSize {
                    payloadLeft = Int(lengthOctets[0]) << 8 | Int(lengthOctets[1])
                    lengthOctets = []
                }
            }
        }
        timer?.cancel()
        timer = nil
        if payloadLeft > 0 || !lengthOctets.isEmpty {
            let bound = self.bound
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: bound) {
                context.fireErrorCaught(VirtualCardError(.stalledFrame, "vpcd stopped inside a frame for \(bound.nanoseconds / 1_000_000) ms"))
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}
