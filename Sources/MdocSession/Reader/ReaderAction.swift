import MdocModel

/// What the caller of a ``ReaderSession`` must do next (ISO/IEC 18013-5 9.1.1.4 message flow).
public enum ReaderAction: Sendable {
    /// Send these bytes to the mdoc, then wait for its next message.
    case send([UInt8])
    /// The mdoc answered: its DeviceResponse and the verification of it. The session stays open
    /// for another request or ``ReaderSession/terminate()``.
    case received(VerificationReport, DeviceResponse)
    /// Send these bytes (a status message), then end the transport: the session is over.
    case sendAndFinish([UInt8], SessionOutcome)
    /// The session is over; end the transport without sending anything.
    case finished(SessionOutcome)
}
