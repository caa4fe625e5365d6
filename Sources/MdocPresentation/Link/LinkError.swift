import MdocErrors

/// Why a live session's link could not be opened or was lost: no peer within the timeout, an
/// engagement offering no mode we can use, a peer busy with another session, or a BLE or NFC
/// failure.
///
/// Equality compares the code only.
public typealias LinkError = MdocError<LinkErrorDomain>

/// The domain of ``LinkError``.
public enum LinkErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == LinkError {
    /// A transport name (such as a `--transport` value) names a bearer this build does not
    /// have.
    public static let unsupportedTransport = Self("unsupportedTransport")
    /// The engagement offers no BLE mode the chosen mode allows.
    public static let noCommonMode = Self("noCommonMode")
    /// Nothing happened within a bound of ``SessionTimeouts``.
    public static let timeout = Self("timeout")
    /// Peers came within the bound of ``SessionTimeouts/connection`` but none started the
    /// session (ISO/IEC 18013-5 8.3.3.1.1.4): each left, or stayed, without writing State 0x01.
    /// An mdoc in central client mode that finds the reader's Ident wrong leaves so.
    public static let sessionNotStarted = Self("sessionNotStarted")
    /// The peer is in a session with someone else: another reader serves the engagement's
    /// service (ISO/IEC 18013-5 8.3.3.1.1.4).
    public static let busy = Self("busy")
    /// The BLE layer failed (see the message).
    public static let bluetooth = Self("bluetooth")
    /// The peer broke the chunking of its messages (ISO/IEC 18013-5 8.3.3.1.1.6): a chunk
    /// whose header is neither 0x00 nor 0x01, a chunk above ATT_MTU − 3 octets, or a message
    /// beyond the size or chunk count this side takes (`MessageReassembler`).
    public static let brokenChunking = Self("brokenChunking")
    /// NFC data retrieval could not start: the card did not answer the SELECT of the mdoc
    /// application (ISO/IEC 18013-5 8.3.3.1.2).
    public static let nfc = Self("nfc")
    /// The transport could not be opened: no controller, no Bluetooth in the kernel, an
    /// adapter in use, no permission (the message says what to do).
    public static let unavailable = Self("unavailable")
    /// The task running the session was cancelled.
    public static let cancelled = Self("cancelled")
}
