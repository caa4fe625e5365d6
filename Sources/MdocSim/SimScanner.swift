import Glibc
import MdocBLE
import MdocPosix
import NIOCore
import NIOPosix
import Synchronization

/// The `sim` transport's scanning, its counterpart of LE advertising reports: a listening socket
/// that advertisers announce themselves to.
///
/// A scanner listens on an abstract name of its own under ``namePrefix`` (after the namespace).
/// An advertiser, once its name is bound, connects to every scanner listening then and sends
/// its address in one datagram (``SimLink/announce(_:)``); a scanner that looked for that address
/// before it was bound and found nobody is told so, and connects again. So a client waiting for
/// an advertiser waits on the scanner's socket, not on a timer: it is told at once.
final class SimScanner: Sendable {
    /// Where scanners listen, after the namespace: `mdoc-sim-scan/<pid>-<n>`.
    static let namePrefix = "mdoc-sim-scan/"
    /// The most announcements held until the scanner takes them.
    static let announcementLimit = 256
    /// The most announcing connections waiting to be accepted, 4096 (Linux caps it at
    /// net.core.somaxconn): every advertiser of the machine announces to every scanner, and an
    /// announcement that finds the backlog full is skipped.
    static let backlog: Int32 = 4096

    private static let counter = Atomic<Int>(0)

    /// The abstract name listened on.
    let name: String
    private let listener: EventLoopFuture<Listener>

    /// A listening channel and the announcements it received.
    private struct Listener: Sendable {
        let channel: any Channel
        let announcements: NIOLoopBound<ReceiveQueue<String>>
    }

    /// Starts listening for announcements: of `address` only, or of every advertiser when nil (a
    /// scan), so that the announcements of other advertisers cannot fill the queue of a client
    /// waiting for one. Throws `systemCall` when the socket fails.
    init(lookingFor address: String? = nil) throws(BLEError) {
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        let name = SimLink.namespace + Self.namePrefix + "\(getpid())-\(number)"
        let socket = try SimSocket.listen(on: name, backlog: Self.backlog, "listening for sim advertisers")
        self.name = name
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        listener = ServerBootstrap(group: loop, childGroup: loop)
            .serverChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.recvAllocator,
                                value: FixedSizeRecvByteBufferAllocator(capacity: SimSocket.maximumNameLength + 1))
            .withBoundSocket(socket)
            .flatMap { channel in
                channel.eventLoop.makeCompletedFuture {
                    let queue = ReceiveQueue<String>(on: channel.eventLoop, limit: Self.announcementLimit,
                                                     itemName: "sim announcements")
                    let bound = NIOLoopBound(queue, eventLoop: channel.eventLoop)
                    try channel.pipeline.syncOperations.addHandler(Announcements(queue: queue, wanted: address))
                    try channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
                    return Listener(channel: channel, announcements: bound)
                }
            }
    }

    deinit {
        stop()
    }

    /// The address of the next advertiser announced, waiting until `deadline`; nil once the
    /// scanner stopped. Throws `peerNotFound` with `notFound` when nobody was announced in time
    /// or the waiting task was cancelled.
    func nextAnnouncement(until deadline: ContinuousClock.Instant,
                          notFound: @escaping @Sendable () -> String) async throws(BLEError) -> String? {
        let listening: Listener
        do {
            listening = try await listener.get()
        } catch {
            throw BLEError(.systemCall, "listening for sim advertisers could not start: \(error)")
        }
        return try await ReceiveQueue.next(
            from: listening.announcements, timeout: max(deadline - ContinuousClock.now, .zero),
            timedOut: { BLEError(.peerNotFound, notFound()) },
            cancelled: { BLEError(.peerNotFound, "\(notFound()): cancelled") })
    }

    /// Stops listening. Idempotent.
    func stop() {
        listener.whenSuccess { $0.channel.close(promise: nil) }
    }

    /// Takes each announcing connection's datagram, the advertiser's address, then closes it.
    private final class Announcements: ChannelInboundHandler {
        typealias InboundIn = any Channel

        let queue: ReceiveQueue<String>
        /// The one address announcements are taken of, nil for all.
        let wanted: String?

        init(queue: ReceiveQueue<String>, wanted: String?) {
            self.queue = queue
            self.wanted = wanted
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let connection = unwrapInboundIn(data)
            // The scanner's connections run on its own event loop.
            do {
                try connection.pipeline.syncOperations.addHandler(Announcement(queue: queue, wanted: wanted))
            } catch {
                connection.close(promise: nil)
                return
            }
            // The end of the pipeline registers the connection with the event loop, which
            // starts reading it.
            context.fireChannelRead(data)
        }

        func channelInactive(context: ChannelHandlerContext) {
            queue.finish()
            context.fireChannelInactive()
        }
    }

    /// One announcing connection: its datagram names the advertiser.
    private final class Announcement: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer

        let queue: ReceiveQueue<String>
        let wanted: String?

        init(queue: ReceiveQueue<String>, wanted: String?) {
            self.queue = queue
            self.wanted = wanted
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let address = String(decoding: unwrapInboundIn(data).readableBytesView, as: UTF8.self)
            // Announcements beyond the limit are dropped: each only says "look again". A
            // client waiting for one address holds only those, so its queue cannot fill.
            if wanted == nil || address == wanted, queue.count < SimScanner.announcementLimit { queue.append(address) }
            context.close(promise: nil)
        }
    }
}
