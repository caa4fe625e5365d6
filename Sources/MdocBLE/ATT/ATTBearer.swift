/// A channel carrying ATT PDUs between two devices, one PDU per call and in order, like the
/// L2CAP fixed channel 0x0004 of an LE link (Bluetooth Core Vol 3 Part F 3.2.11, Part A 2.1).
///
/// Implementations are reference types shared by the GATT client or server driving them and
/// the code that closes them.
public protocol ATTBearer: AnyObject, Sendable {
    /// The largest PDU the link carries either way; 517 on LE (the largest ATT_MTU,
    /// Core Vol 3 Part F 3.2.8 with the 512-octet attribute value limit of 3.2.9).
    var maximumPDUSize: Int { get }

    /// Sends one PDU. Throws `BLEError.Code.linkClosed` when the link is closed and
    /// `BLEError.Code.pduTooLarge` when the PDU exceeds `maximumPDUSize`.
    func send(_ pdu: [UInt8]) async throws(BLEError)

    /// Receives the next PDU; nil once the peer closed the link or `close()` was called.
    func receive() async throws(BLEError) -> [UInt8]?

    /// Closes the link. Idempotent; a pending `receive()` returns nil.
    func close()
}
