/// A BLE transport that can send the transport-specific termination of ISO/IEC 18013-5
/// 8.3.3.1.1.5, State 0x02, and keep the link up: what a conformance test sends alone to see
/// whether the peer then closes the channel itself, as termination requires of it (9.1.1.4).
/// The transports of the `sim`, `hci:` and `bluez` radios have it; ``MdocTransport/end()`` sends
/// the same and closes the link.
package protocol MdocStateEndSignalling: MdocTransport {
    /// Writes State 0x02 (the GATT client) or notifies it (the GATT server, which needs the
    /// client's subscription to State: `notSubscribed` without it); the link stays up.
    func signalStateEnd() async throws(BLEError)
}
