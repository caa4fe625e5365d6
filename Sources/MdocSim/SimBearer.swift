import Glibc
import MdocBLE
import MdocPosix
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An ATT bearer over a local AF_UNIX SOCK_SEQPACKET socket: the `sim` transport
/// (docs/architecture.md section 4), standing in for the L2CAP ATT channel of an LE link
/// (Bluetooth Core Vol 3 Part F 3.2.11).
///
/// One PDU per datagram, delivered in order; PDUs above ``maximumPDUSize`` are refused on send
/// and end the link on receive, as no LE peer can send them. The socket is a SwiftNIO channel:
/// its event loop reads and writes it and runs the GATT server or client above. Get one from
/// ``SimLink``.
public final class SimBearer: ATTBearer {
    /// The largest ATT PDU on LE: ATT_MTU 517, a 512-octet attribute value plus the 3-octet
    /// Handle Value Notification header (Core Vol 3 Part F 3.2.8, 3.2.9).
    public static let defaultMaximumPDUSize = GATTServer.serverReceiveMTU
    /// The most received PDUs held before the consumer attaches, 64: then the bearer stops
    /// reading, the socket's buffer fills and the peer's writes wait.
    public static let receiveQueueLimit = 64

    /// The largest PDU this link carries either way.
    public let maximumPDUSize: Int
    /// The socket's channel.
    let channel: any Channel
    /// The last handler of the channel, which holds what arrives until ``attach(_:)``. Kept here
    /// because a channel that closes drops its handlers: PDUs the peer sent before it left are
    /// still delivered after that.
    private let delivery: NIOLoopBound<InboundDeliveryHandler<ByteBuffer>>

    /// The bearer of `channel`, whose `delivery` ``configure(_:maximumPDUSize:)`` added.
    init(channel: any Channel, delivery: NIOLoopBound<InboundDeliveryHandler<ByteBuffer>>, maximumPDUSize: Int) {
        self.channel = channel
        self.delivery = delivery
        self.maximumPDUSize = maximumPDUSize
    }

    deinit {
        channel.close(promise: nil)
    }

    /// The channel's event loop.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Sets up a sim socket's `channel`: packet boundaries, the size limit, and the hand-over of
    /// received PDUs to the bearer's consumer, whose handler it returns. On the channel's event
    /// loop.
    @discardableResult
    static func configure(_ channel: any Channel, maximumPDUSize: Int) throws -> NIOLoopBound<InboundDeliveryHandler<ByteBuffer>> {
        let framing = PacketFramingHandler(maximumPacketSize: maximumPDUSize) { size in
            BLEError(.pduTooLarge,
                     "the peer on the sim link sent a packet of \(size) bytes, above the link's maximum of \(maximumPDUSize); the link is closed")
        }
        let delivery = InboundDeliveryHandler<ByteBuffer>(limit: receiveQueueLimit, linkName: "the sim link")
        try channel.pipeline.syncOperations.addHandlers([framing, delivery])
        return NIOLoopBound(delivery, eventLoop: channel.eventLoop)
    }

    /// The receive allocator of a sim socket's channel.
    static func receiveAllocator(maximumPDUSize: Int) -> FixedSizeRecvByteBufferAllocator {
        PacketFramingHandler.receiveAllocator(maximumPacketSize: maximumPDUSize)
    }

    /// Takes ownership of the connected SOCK_SEQPACKET socket `socket` (closed on failure).
    static func connected(socket: Int32, maximumPDUSize: Int = SimBearer.defaultMaximumPDUSize) async throws(BLEError) -> SimBearer {
        let delivery = NIOLockedValueBox<NIOLoopBound<InboundDeliveryHandler<ByteBuffer>>?>(nil)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.recvAllocator, value: receiveAllocator(maximumPDUSize: maximumPDUSize))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try configure(channel, maximumPDUSize: maximumPDUSize)
                    delivery.withLockedValue { $0 = handler }
                }
            }
        do {
            let channel = try await bootstrap.withConnectedSocket(socket).get()
            guard let handler = delivery.withLockedValue({ $0 }) else { throw ChannelError.inappropriateOperationForState }
            return SimBearer(channel: channel, delivery: handler, maximumPDUSize: maximumPDUSize)
        } catch {
            throw BLEError(.systemCall, "the sim link could not be set up: \(error)")
        }
    }

    /// Sends PDUs in order; the errors of `ATTBearer.send(_:)`.
    public func send(_ pdus: [[UInt8]]) -> EventLoopFuture<Void> {
        if let refused = checkOutgoing(pdus, link: "the sim link") { return eventLoop.makeFailedFuture(refused) }
        let channel = channel
        let write: @Sendable () -> EventLoopFuture<Void> = {
            var last = channel.eventLoop.makeSucceededVoidFuture()
            for pdu in pdus { last = channel.write(ByteBuffer(bytes: pdu)) }
            channel.flush()
            return last.flatMapErrorThrowing { error in
                throw BLEError(.linkClosed, "the sim link is closed (\(error)); \(pdus.count == 1 ? "a PDU" : "\(pdus.count) PDUs") not sent")
            }
        }
        return eventLoop.inEventLoop ? write() : eventLoop.flatSubmit(write)
    }

    /// Hands what the socket receives to `consumer`.
    public func attach(_ consumer: ATTBearerConsumer) {
        delivery.value.attach(received: { consumer.received(Array($0.readableBytesView)) }, ended: consumer.ended)
    }

    /// Closes the link; the consumer sees it end and the peer sees the link close. Idempotent.
    public func close() {
        channel.close(promise: nil)
    }
}
