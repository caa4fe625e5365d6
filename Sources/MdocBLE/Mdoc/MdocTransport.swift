/// One side of an ISO/IEC 18013-5 BLE data retrieval session (8.3.3.1.1): whole messages
/// in and out, chunked over the GATT service of ``MdocGATTProfile``.
///
/// ``MdocGATTServerTransport`` is the GATT server side (the mdoc in peripheral server mode, the
/// reader in central client mode), ``MdocGATTClientTransport`` the GATT client side.
public protocol MdocTransport: AnyObject, Sendable {
    /// Which of the two 18013-5 BLE modes this session uses; `nil` for a link that is not BLE
    /// (NFC data retrieval, 8.3.3.1.2), whose messages the drivers handle all the same.
    var mode: MdocBLEMode? { get }

    /// The ATT_MTU in use on the link (Core Vol 3 Part F 3.4.2): 23 until exchanged.
    var mtu: Int { get async }

    /// Sends one message in chunks of min(512, ATT_MTU − 3) octets (8.3.3.1.1.6).
    func send(_ message: [UInt8]) async throws(BLEError)

    /// The next message, State 0x02 from the peer (`.ended`) or the link closing
    /// (`.disconnected`). Throws when the peer broke the chunking rules or the link failed.
    func receive() async throws(BLEError) -> MdocTransportEvent

    /// Transport-specific termination (8.3.3.1.1.5): State 0x02 (written by the GATT client,
    /// notified by the GATT server), then the link is closed. Failures are ignored: the session
    /// is over either way.
    func end() async

    /// Closes the link without State 0x02.
    func close()

    /// The inactivity bounds of the receiving side: told of each chunk from the peer as it
    /// arrives (8.3.3.1.1.6), it says when a wait for the next message runs out, which tells a
    /// peer that is still sending one from a peer that went quiet.
    var inactivity: InactivityWatch { get }
}
