import Glibc
import Logging
import MdocBLE
import MdocPosix
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The link between this host and a Bluetooth controller: HCI packets both ways over a TCP
/// stream, a serial line or the Linux HCI user channel (Bluetooth Core Vol 4 Part A 2, docs/architecture.md
/// section 4). The link is a SwiftNIO channel: its event loop reads and writes it, cuts the
/// stream into packets (``H4PacketDecoder``) and runs the ``LEHost`` above. Every packet is
/// logged at trace level and, with a ``BTSnoopWriter``, written to a btsnoop file.
public final class HCITransport: Sendable, CustomStringConvertible {
    /// The most time opening a TCP connection to a controller may take.
    public static let connectTimeout: Duration = .seconds(5)
    /// The most packets held until the host attaches, 64: then the transport stops reading and
    /// the controller waits.
    static let receiveQueueLimit = 64

    /// How packets are delimited on the descriptor.
    enum Framing: Sendable {
        /// An HCI UART (H4) byte stream: TCP to a virtual controller, or a serial line.
        case h4Stream
        /// One packet per read and write, at most `maximumSize` octets with its indicator: the
        /// Linux HCI user channel.
        case datagram(maximumSize: Int)
    }

    /// Where the controller is, as given to `--transport` (after `hci:`).
    public let spec: HCITransportSpec?
    /// The link's channel.
    let channel: any Channel
    /// The last handler of the channel, which holds what arrives until ``attach(received:ended:)``.
    /// Kept here because a channel that closes drops its handlers: packets the controller sent
    /// before it went away are still delivered after that.
    private let delivery: NIOLoopBound<InboundDeliveryHandler<HCIPacket>>

    private init(channel: any Channel, delivery: NIOLoopBound<InboundDeliveryHandler<HCIPacket>>, spec: HCITransportSpec?) {
        self.channel = channel
        self.delivery = delivery
        self.spec = spec
    }

    /// The transport of `channel` once the bootstrap that ran ``configure(_:framing:spec:snoop:logger:)``
    /// into `delivery` made it.
    private convenience init(channel: any Channel, configured delivery: DeliveryHandlerBox, spec: HCITransportSpec?) throws {
        guard let handler = delivery.withLockedValue({ $0 }) else { throw ChannelError.inappropriateOperationForState }
        self.init(channel: channel, delivery: handler, spec: spec)
    }

    /// Where a channel initializer leaves the delivery handler it added.
    private typealias DeliveryHandlerBox = NIOLockedValueBox<NIOLoopBound<InboundDeliveryHandler<HCIPacket>>?>

    deinit {
        channel.close(promise: nil)
    }

    /// Opens the controller `spec` names. Throws `transportUnavailable` with what to do when it
    /// cannot be reached (nothing listens, no device, no Bluetooth in the kernel, an adapter in
    /// use, no permission), `systemCall` for other failures.
    public static func open(_ spec: HCITransportSpec, snoop: BTSnoopWriter? = nil,
                            logger: Logger = Logger(label: "mdoc.hci")) async throws(BLEError) -> HCITransport {
        switch spec {
        case .tcp(let host, let port):
            return try await connect(host: host, port: port, spec: spec, snoop: snoop, logger: logger)
        case .serial(let path, let baudRate, let flowControl):
            let descriptor = try SerialPort.open(path: path, baudRate: baudRate, flowControl: flowControl)
            return try await open(descriptor: descriptor, framing: .h4Stream, spec: spec, snoop: snoop, logger: logger)
        case .userChannel(let index):
            let descriptor = try HCIUserChannel.open(index: index)
            return try await open(descriptor: descriptor, framing: .datagram(maximumSize: HCIUserChannel.maximumPacketSize),
                                  spec: spec, snoop: snoop, logger: logger)
        }
    }

    /// H4 over TCP to `host`:`port` (name resolution, a connect bounded by ``connectTimeout``,
    /// TCP_NODELAY: HCI packets are small and latency-bound).
    private static func connect(host: String, port: UInt16, spec: HCITransportSpec, snoop: BTSnoopWriter?,
                                logger: Logger) async throws(BLEError) -> HCITransport {
        let delivery = DeliveryHandlerBox(nil)
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(TimeAmount(connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = try configure(channel, framing: .h4Stream, spec: spec, snoop: snoop, logger: logger)
                    delivery.withLockedValue { $0 = handler }
                }
            }
        do {
            return try HCITransport(channel: try await bootstrap.connect(host: host, port: Int(port)).get(), configured: delivery,
                                    spec: spec)
        } catch let error as NIOConnectionError {
            throw unreachable(host: host, port: port, error.connectionErrors.last?.error ?? error.dnsAError ?? error.dnsAAAAError)
        } catch {
            throw unreachable(host: host, port: port, error)
        }
    }

    /// The error of a TCP controller that could not be reached because of `error`.
    private static func unreachable(host: String, port: UInt16, _ error: (any Error)?) -> BLEError {
        switch error {
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return BLEError(.transportUnavailable,
                            "hci:tcp:\(host):\(port): nothing listens there; start a controller first, for example `python3 -m bumble.apps.controllers tcp-server:127.0.0.1:\(port) tcp-server:127.0.0.1:\(port &+ 1)`")
        case let error as ChannelError where error == .connectTimeout(TimeAmount(connectTimeout)):
            return BLEError(.transportUnavailable, "hci:tcp:\(host):\(port): no answer within \(connectTimeout)")
        case is SocketAddressError, is SocketAddressError.UnknownHost, is NIOConnectionError:
            return BLEError(.transportUnavailable, "hci:tcp:\(host):\(port): cannot resolve \"\(host)\"")
        case let error?:
            return BLEError(.transportUnavailable, "hci:tcp:\(host):\(port): cannot connect: \(error)")
        case nil:
            return BLEError(.transportUnavailable, "hci:tcp:\(host):\(port): cannot resolve \"\(host)\"")
        }
    }

    /// Takes ownership of the open `descriptor` carrying packets framed by `framing`; on
    /// failure it is closed.
    static func open(descriptor: Int32, framing: Framing, spec: HCITransportSpec?, snoop: BTSnoopWriter?,
                     logger: Logger) async throws(BLEError) -> HCITransport {
        var bootstrap = NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if case .datagram(let maximumSize) = framing {
            bootstrap = bootstrap.channelOption(ChannelOptions.recvAllocator,
                                                value: PacketFramingHandler.receiveAllocator(maximumPacketSize: maximumSize))
        }
        let delivery = DeliveryHandlerBox(nil)
        let configured = bootstrap.channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = try configure(channel, framing: framing, spec: spec, snoop: snoop, logger: logger)
                delivery.withLockedValue { $0 = handler }
            }
        }
        do {
            return try HCITransport(channel: try await configured.takingOwnershipOfDescriptor(inputOutput: descriptor).get(),
                                    configured: delivery, spec: spec)
        } catch {
            Glibc.close(descriptor)
            throw BLEError(.systemCall, "the HCI transport \(spec.map { "hci:\($0)" } ?? "") could not be set up: \(error)")
        }
    }

    /// Sets up the pipeline of a controller's channel: framing, the packet recorder, and the
    /// hand-over of received packets to the host, whose handler it returns.
    private static func configure(_ channel: any Channel, framing: Framing, spec: HCITransportSpec?, snoop: BTSnoopWriter?,
                                  logger: Logger) throws -> NIOLoopBound<InboundDeliveryHandler<HCIPacket>> {
        let name = "the HCI transport \(spec.map { "hci:\($0)" } ?? "")"
        let operations = channel.pipeline.syncOperations
        switch framing {
        case .h4Stream:
            try operations.addHandler(ByteToMessageHandler(H4PacketDecoder()))
            try operations.addHandler(MessageToByteHandler(HCIPacketEncoder()))
        case .datagram(let maximumSize):
            try operations.addHandler(PacketFramingHandler(maximumPacketSize: maximumSize) { size in
                BLEError(.malformedPacket, "the controller on \(name) sent a packet of \(size) bytes, above the \(maximumSize) accepted")
            })
            try operations.addHandler(HCIDatagramCodec())
        }
        try operations.addHandler(HCIPacketRecorder(snoop: snoop, logger: logger))
        let delivery = InboundDeliveryHandler<HCIPacket>(limit: receiveQueueLimit, linkName: name)
        try operations.addHandler(delivery)
        return NIOLoopBound(delivery, eventLoop: channel.eventLoop)
    }

    /// The event loop of the link, which runs the host.
    public var eventLoop: any EventLoop { channel.eventLoop }

    /// Queues `packet` for the controller without flushing; packets leave in the order queued.
    /// A write that fails closes the transport, which ends the host.
    func write(_ packet: HCIPacket) {
        channel.write(packet, promise: nil)
    }

    /// Sends the packets queued by ``write(_:)``.
    func flush() {
        channel.flush()
    }

    /// Sends `packet` to the controller at once.
    func send(_ packet: HCIPacket) {
        channel.writeAndFlush(packet, promise: nil)
    }

    /// Hands the packets received so far and every later one to `received`, then the end of the
    /// link to `ended`: success when the controller closed it or ``close()`` was called, else why
    /// it failed (`malformedPacket` for bytes that are not HCI packets). On ``eventLoop``, once.
    func attach(received: @escaping (HCIPacket) -> Void, ended: @escaping (Result<Void, BLEError>) -> Void) {
        delivery.value.attach(received: received, ended: ended)
    }

    /// Closes the transport; the host sees it end. Idempotent.
    public func close() {
        channel.close(promise: nil)
    }

    /// `hci:` and the spec.
    public var description: String { spec.map { "hci:\($0)" } ?? "hci" }
}
