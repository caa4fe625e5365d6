/// What an 18013-5 BLE transport delivers to the session above it (ISO/IEC 18013-5 8.3.3.1.1).
public enum MdocTransportEvent: Sendable, Hashable {
    /// A complete message, reassembled from its chunks (8.3.3.1.1.6): SessionEstablishment or
    /// SessionData bytes, not decoded here.
    case message([UInt8])
    /// The peer ended the session with State 0x02, transport-specific termination (8.3.3.1.1.5).
    case ended
    /// The link closed; any partial message is dropped. Every later receive gives this again.
    case disconnected
}
