import Glibc
import MdocBLE
import MdocPosix
import NIOCore
import NIOPosix

/// A listening sim socket named after a service UUID: the `sim` transport's counterpart of LE
/// advertising with the service UUID in the advertising data (ISO/IEC 18013-5 Table A.1).
///
/// It advertises until ``stop()``: an 18013-5 GATT server takes centrals until one of them
/// starts the session (8.3.3.1.1.4), so each ``accept(timeout:)`` takes the next client. The
/// listening socket is a SwiftNIO server channel, which accepts clients as they connect. Get one
/// from ``SimLink/advertise(serviceUUID:)``.
public final class SimAdvertiser: Sendable {
    /// The most clients connected and not yet taken by ``accept(timeout:)``; more are turned
    /// away (their link closes at once).
    public static let acceptQueueLimit = 64

    /// The abstract socket name advertised.
    public let address: String
    /// The listening channel and its accepted links, once registered.
    private let listener: EventLoopFuture<Listener>

    /// A listening channel and the links it accepted, not yet taken.
    private struct Listener: Sendable {
        let channel: any Channel
        let links: NIOLoopBound<ReceiveQueue<AcceptedLink>>
    }

    /// Advertises on the listening socket `socket` bound to `address` (taking ownership of it).
    init(address: String, socket: Int32) {
        self.address = address
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let maximumPDUSize = SimBearer.defaultMaximumPDUSize
        // The links run on the listener's event loop: each is paired with its delivery handler
        // there, before it is registered and can close.
        listener = ServerBootstrap(group: loop, childGroup: loop)
            // Clients wait in the backlog until the queue of accepted links is in place.
            .serverChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.recvAllocator, value: SimBearer.receiveAllocator(maximumPDUSize: maximumPDUSize))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try SimBearer.configure(channel, maximumPDUSize: maximumPDUSize) }
            }
            .withBoundSocket(socket)
            .flatMap { channel in
                channel.eventLoop.makeCompletedFuture {
                    let links = AcceptedLinks(on: channel.eventLoop, address: address)
                    try channel.pipeline.syncOperations.addHandler(links)
                    try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                    return Listener(channel: channel, links: NIOLoopBound(links.queue, eventLoop: channel.eventLoop))
                }
            }
    }

    deinit {
        stop()
    }

    /// Waits up to `timeout` for the next client and returns the link; advertising goes on.
    /// Throws `timeout` when nobody connected in time, `linkClosed` after advertising stopped.
    public func accept(timeout: Duration) async throws(BLEError) -> SimBearer {
        let address = address
        let listening: Listener
        do {
            listening = try await listener.get()
        } catch {
            throw BLEError(.systemCall, "advertising \"\(address)\" could not start: \(error)")
        }
        let link = try await ReceiveQueue.next(
            from: listening.links, timeout: timeout,
            timedOut: { BLEError(.timeout, "no sim client connected to \"\(address)\" within \(timeout)") },
            cancelled: { BLEError(.timeout, "waiting for a sim client on \"\(address)\" was cancelled") })
        guard let link else {
            throw BLEError(.linkClosed, "advertising \"\(address)\" has stopped")
        }
        return SimBearer(channel: link.channel, delivery: link.delivery, maximumPDUSize: SimBearer.defaultMaximumPDUSize)
    }

    /// Stops advertising: the name is released and later connects fail. Idempotent. The name
    /// is released on the listener's event loop soon after; ``stopAndRelease()`` waits for it.
    public func stop() {
        listener.whenSuccess { $0.channel.close(promise: nil) }
    }

    /// Stops advertising and returns once the name is released. Idempotent.
    public func stopAndRelease() async {
        guard let listening = try? await listener.get() else { return }
        try? await listening.channel.close()
    }

    /// A link accepted and set up, with the handler that holds what it receives.
    private struct AcceptedLink: Sendable {
        let channel: any Channel
        let delivery: NIOLoopBound<InboundDeliveryHandler<ByteBuffer>>
    }

    /// The links accepted on the listening channel, waiting for ``accept(timeout:)``.
    private final class AcceptedLinks: ChannelInboundHandler {
        typealias InboundIn = any Channel

        let queue: ReceiveQueue<AcceptedLink>

        init(on eventLoop: any EventLoop, address: String) {
            queue = ReceiveQueue(on: eventLoop, limit: SimAdvertiser.acceptQueueLimit, itemName: "clients of \"\(address)\"")
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let link = unwrapInboundIn(data)
            // Beyond the limit a client is turned away; advertising goes on.
            guard queue.count < SimAdvertiser.acceptQueueLimit,
                  let delivery = try? link.pipeline.syncOperations.handler(type: InboundDeliveryHandler<ByteBuffer>.self),
                  queue.append(AcceptedLink(channel: link, delivery: NIOLoopBound(delivery, eventLoop: link.eventLoop)))
            else {
                link.close(promise: nil)
                return
            }
            // The end of the pipeline registers the link with its event loop, which starts
            // reading it.
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            for link in queue.removeAll() { link.channel.close(promise: nil) }
            queue.finish()
            context.fireChannelInactive()
        }
    }
}
