import Logging

/// The link between this host and a Bluetooth controller: HCI packets both ways over a TCP
/// stream, a serial line or the Linux HCI user channel (Bluetooth Core Vol 4 Part A 2, docs/architecture.md
/// section 4). A dedicated thread does the I/O; every packet is logged at trace level and, with
/// a ``BTSnoopWriter``, written to a btsnoop file.
public final class HCITransport: Sendable, CustomStringConvertible {
    /// The most time opening a TCP connection to a controller may take.
    public static let connectTimeout: Duration = .seconds(5)

    /// Where the controller is, as given to `--transport` (after `hci:`).
    public let spec: HCITransportSpec?
    private let thread: PacketIOThread
    private let snoop: BTSnoopWriter?
    private let logger: Logger

    /// Takes ownership of the open, non-blocking `descriptor` carrying packets framed by
    /// `framing`; on failure it is closed.
    init(descriptor: Int32, framing: PacketFraming, spec: HCITransportSpec?, snoop: BTSnoopWriter?,
         logger: Logger) throws(BLEError) {
        self.spec = spec
        self.snoop = snoop
        self.logger = logger
        thread = try PacketIOThread(descriptor: descriptor, framing: framing,
                                    name: "the HCI transport \(spec.map { "hci:\($0)" } ?? "")")
    }

    /// Opens the controller `spec` names. Throws `transportUnavailable` with what to do when it
    /// cannot be reached (nothing listens, no device, no Bluetooth in the kernel, an adapter in
    /// use, no permission), `systemCall` for other failures.
    public static func open(_ spec: HCITransportSpec, snoop: BTSnoopWriter? = nil,
                            logger: Logger = Logger(label: "mdoc.hci")) async throws(BLEError) -> HCITransport {
        let descriptor: Int32
        let framing: PacketFraming
        switch spec {
        case .tcp(let host, let port):
            descriptor = try await TCPConnector.connect(host: host, port: port, timeout: connectTimeout)
            framing = .h4Stream
        case .serial(let path, let baudRate, let flowControl):
            descriptor = try SerialPort.open(path: path, baudRate: baudRate, flowControl: flowControl)
            framing = .h4Stream
        case .userChannel(let index):
            descriptor = try HCIUserChannel.open(index: index)
            framing = .datagram(maximumSize: HCIUserChannel.maximumPacketSize)
        }
        return try HCITransport(descriptor: descriptor, framing: framing, spec: spec, snoop: snoop, logger: logger)
    }

    deinit {
        thread.close()
    }

    /// Queues `packet` for the controller; packets leave in the order queued. Throws
    /// `linkClosed` once the transport is closed.
    public func send(_ packet: HCIPacket) throws(BLEError) {
        logger.trace("HCI >", metadata: ["packet": "\(hex(packet.h4Bytes))"])
        // Recorded first: the controller's answer may arrive before enqueue returns.
        snoop?.record(packet, direction: .sent)
        try thread.enqueue(packet.h4Bytes)
    }

    /// The next packet from the controller; nil once the transport was closed or the
    /// controller went away. Throws `malformedPacket` when the controller's bytes are not HCI
    /// packets (the transport is then closed).
    public func receive() async throws(BLEError) -> HCIPacket? {
        guard let bytes = try await thread.receive() else { return nil }
        logger.trace("HCI <", metadata: ["packet": "\(hex(bytes))"])
        do {
            let packet = try HCIPacket(h4: bytes)
            snoop?.record(packet, direction: .received)
            return packet
        } catch {
            thread.close()
            throw error
        }
    }

    /// Closes the transport; a pending ``receive()`` returns nil. Idempotent.
    public func close() {
        thread.close()
    }

    /// `hci:` and the spec.
    public var description: String { spec.map { "hci:\($0)" } ?? "hci" }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
