/// What the caller of a ``HolderSession`` must do next (ISO/IEC 18013-5 9.1.1.4 message flow).
public enum HolderAction: Sendable {
    /// Send these bytes to the reader, then wait for its next message.
    case send([UInt8])
    /// A request arrived: judge who asks and what to release, then answer with
    /// ``HolderSession/decide(_:)``.
    case requestReceived(ReceivedRequest)
    /// Send these bytes (a status message), then end the transport: the session is over.
    case sendAndFinish([UInt8], SessionOutcome)
    /// The session is over; end the transport without sending anything.
    case finished(SessionOutcome)
}
