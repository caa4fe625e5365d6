import NIOCore

/// A channel carrying ATT PDUs between two devices, one PDU at a time and in order, like the
/// L2CAP fixed channel 0x0004 of an LE link (Bluetooth Core Vol 3 Part F 3.2.11, Part A 2.1).
///
/// A bearer belongs to an event loop: its I/O runs there, what it receives reaches its consumer
/// there, and the GATT server or client over it keeps its state there (an actor whose executor is
/// that loop), so nothing between them waits on a lock or a task. The `sim` transport's bearer is
/// a socket channel; an LE link's is the ATT channel its LE host multiplexes over the controller.
public protocol ATTBearer: AnyObject, Sendable {
    /// The event loop of the link.
    var eventLoop: any EventLoop { get }

    /// The largest PDU the link carries either way; 517 on LE (the largest ATT_MTU,
    /// Core Vol 3 Part F 3.2.8 with the 512-octet attribute value limit of 3.2.9).
    var maximumPDUSize: Int { get }

    /// Sends `pdus` in order, with no other PDU of this side between them. The future succeeds
    /// once the link took the last one and fails with `BLEError.Code.linkClosed` once the link is
    /// closed, `BLEError.Code.pduTooLarge` for a PDU above ``maximumPDUSize`` and
    /// `BLEError.Code.malformedPDU` for an empty one (every ATT PDU has an opcode, Part F 3.3.1).
    func send(_ pdus: [[UInt8]]) -> EventLoopFuture<Void>

    /// Hands the PDUs received so far, then every later one, to `consumer`, and finally the end
    /// of the link. Called on ``eventLoop``, once.
    func attach(_ consumer: ATTBearerConsumer)

    /// Closes the link; the consumer sees it end. Idempotent.
    func close()
}

extension ATTBearer {
    /// Sends one PDU and waits until the link took it; the errors of ``send(_:)-1ql6d``.
    public func send(_ pdu: [UInt8]) async throws(BLEError) {
        try await send([pdu]).bleValue()
    }

    /// Checks `pdus` against what an ATT bearer carries: `malformedPDU` for an empty one,
    /// `pduTooLarge` for one above ``maximumPDUSize``; `link` names the link in the message.
    package func checkOutgoing(_ pdus: [[UInt8]], link: String) -> BLEError? {
        for pdu in pdus {
            if pdu.isEmpty {
                return BLEError(.malformedPDU, "an empty PDU cannot be sent: every ATT PDU starts with an opcode")
            }
            if pdu.count > maximumPDUSize {
                return BLEError(.pduTooLarge, "a PDU of \(pdu.count) bytes exceeds the maximum of \(maximumPDUSize) on \(link)")
            }
        }
        return nil
    }
}

/// Who takes what an ``ATTBearer`` receives, on the bearer's event loop.
public struct ATTBearerConsumer {
    /// Called with each PDU, in the order they arrived.
    public var received: ([UInt8]) -> Void
    /// Called once, after the last PDU: success when either side closed the link, else why it
    /// failed.
    public var ended: (Result<Void, BLEError>) -> Void

    /// A consumer calling `received` for each PDU and `ended` at the end.
    public init(received: @escaping ([UInt8]) -> Void, ended: @escaping (Result<Void, BLEError>) -> Void) {
        self.received = received
        self.ended = ended
    }
}
