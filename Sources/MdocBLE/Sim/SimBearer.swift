import Glibc

/// An ATT bearer over a local AF_UNIX SOCK_SEQPACKET socket: the `sim` transport
/// (docs/architecture.md section 4), standing in for the L2CAP ATT channel of an LE link
/// (Bluetooth Core Vol 3 Part F 3.2.11).
///
/// One PDU per datagram, delivered in order; PDUs above ``maximumPDUSize`` are refused on send
/// and end the link on receive, as no LE peer can send them. A dedicated thread does the socket
/// work, so no call blocks the Swift cooperative pool. Get one from ``SimLink``.
public final class SimBearer: ATTBearer {
    /// The largest ATT PDU on LE: ATT_MTU 517, a 512-octet attribute value plus the 3-octet
    /// Handle Value Notification header (Core Vol 3 Part F 3.2.8, 3.2.9).
    public static let defaultMaximumPDUSize = GATTServer.serverReceiveMTU

    /// The largest PDU this link carries either way.
    public let maximumPDUSize: Int
    private let thread: PacketIOThread

    /// Takes ownership of the connected SOCK_SEQPACKET socket `socket` (closed on failure).
    init(socket: Int32, maximumPDUSize: Int = SimBearer.defaultMaximumPDUSize) throws(BLEError) {
        self.maximumPDUSize = maximumPDUSize
        thread = try PacketIOThread(descriptor: socket, framing: .datagram(maximumSize: maximumPDUSize), name: "the sim link")
    }

    deinit {
        thread.close()
    }

    /// Sends one PDU. Throws `pduTooLarge` above ``maximumPDUSize``, `malformedPDU` for an
    /// empty PDU (every ATT PDU has an opcode, Core Vol 3 Part F 3.3.1), `linkClosed` once the
    /// link is closed.
    public func send(_ pdu: [UInt8]) async throws(BLEError) {
        guard !pdu.isEmpty else {
            throw BLEError(.malformedPDU, "an empty PDU cannot be sent: every ATT PDU starts with an opcode")
        }
        guard pdu.count <= maximumPDUSize else {
            throw BLEError(.pduTooLarge, "a PDU of \(pdu.count) bytes exceeds the sim link's maximum of \(maximumPDUSize)")
        }
        try await thread.send(pdu)
    }

    /// The next PDU; nil after ``close()`` or once the peer closed the link and its earlier PDUs
    /// were taken. Throws `pduTooLarge` when the peer sent a PDU above ``maximumPDUSize`` (the
    /// link is then closed) and `systemCall` when the socket failed.
    public func receive() async throws(BLEError) -> [UInt8]? {
        try await thread.receive()
    }

    /// Closes the link; a pending ``receive()`` returns nil and the peer sees the link close.
    /// Idempotent.
    public func close() {
        thread.close()
    }

    /// How many received PDUs wait for ``receive()``.
    var bufferedCount: Int { thread.bufferedCount }
}
