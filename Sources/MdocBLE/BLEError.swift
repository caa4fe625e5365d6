import MdocErrors

/// A failure of the BLE transport: the link, the ATT protocol (Bluetooth Core Vol 3 Part F),
/// GATT (Core Vol 3 Part G) or the ISO/IEC 18013-5 8.3.3.1.1 service on top of them.
///
/// Equality compares the code only.
public typealias BLEError = MdocError<BLEErrorDomain>

/// The domain of ``BLEError``, whose errors print `code: reason`.
public enum BLEErrorDomain: CodeNamingErrorDomain {
    /// For `attError`: the Error Code of the peer's Error Response.
    public typealias Context = ATTErrorCode?
}

extension MdocError where Domain == BLEErrorDomain {
    /// For `attError`: the Error Code of the peer's Error Response (Core Vol 3 Part F 3.4.1.1).
    public var attErrorCode: ATTErrorCode? { context }

    /// An `attError`: the peer answered with an Error Response carrying `attErrorCode`; made at
    /// `fileID`, `line` (the caller's place, unless given).
    public init(attErrorCode: ATTErrorCode, _ reason: String, fileID: String = #fileID, line: Int = #line) {
        self.init(.attError, reason, context: attErrorCode, fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == BLEError {
    /// The link is closed (by either side) or closed while an operation waited.
    public static let linkClosed = Self("linkClosed")
    /// An operation did not complete in time (for example the ATT transaction timeout,
    /// Core Vol 3 Part F 3.3.3).
    public static let timeout = Self("timeout")
    /// No peer advertising the wanted service was found.
    public static let peerNotFound = Self("peerNotFound")
    /// Links were made to the 18013-5 service but none became a session (State 0x01,
    /// ISO/IEC 18013-5 8.3.3.1.1.4) in time: centrals that never started it, or a client's
    /// links that dropped before it; the reason says what happened.
    public static let sessionNotStarted = Self("sessionNotStarted")
    /// A PDU or value is larger than the link or the ATT_MTU allows.
    public static let pduTooLarge = Self("pduTooLarge")
    /// Received bytes are not a well-formed ATT PDU (Core Vol 3 Part F 3.4).
    public static let malformedPDU = Self("malformedPDU")
    /// The peer answered with an ATT Error Response (Core Vol 3 Part F 3.4.1.1).
    public static let attError = Self("attError")
    /// The peer broke the protocol: an unexpected PDU, a response to no request, a wrong handle.
    public static let protocolViolation = Self("protocolViolation")
    /// A reassembled message exceeds its size limit (ISO/IEC 18013-5 8.3.3.1.1.6).
    public static let messageTooLarge = Self("messageTooLarge")
    /// A message arrived in more chunks than allowed.
    public static let tooManyChunks = Self("tooManyChunks")
    /// A chunk's first byte is neither 0x00 nor 0x01 (ISO/IEC 18013-5 8.3.3.1.1.6).
    public static let invalidChunkHeader = Self("invalidChunkHeader")
    /// The reader's Ident characteristic does not match the expected value
    /// (ISO/IEC 18013-5 8.3.3.1.1.4).
    public static let identMismatch = Self("identMismatch")
    /// The peer's GATT database has no service with the wanted UUID.
    public static let serviceNotFound = Self("serviceNotFound")
    /// The service lacks a required characteristic (or its descriptor).
    public static let characteristicNotFound = Self("characteristicNotFound")
    /// A notification was asked for a characteristic the client has not subscribed to
    /// (Core Vol 3 Part G 3.3.3.3).
    public static let notSubscribed = Self("notSubscribed")
    /// A system call (socket, poll, …) failed.
    public static let systemCall = Self("systemCall")
    /// Too many notifications are queued and not yet consumed.
    public static let queueOverflow = Self("queueOverflow")
    /// Bytes from the controller are not a well-formed HCI packet (Core Vol 4 Part E 5.4),
    /// or an L2CAP frame is malformed (Core Vol 3 Part A 3).
    public static let malformedPacket = Self("malformedPacket")
    /// The controller refused or failed an HCI command (an error status, Core Vol 1 Part F),
    /// reported a hardware error, or did not answer in time.
    public static let controllerError = Self("controllerError")
    /// A transport name (`hci:tcp:HOST:PORT`, …) is not well formed.
    public static let invalidTransport = Self("invalidTransport")
    /// The service UUID is advertised already by another peer on the same bearer (the `sim`
    /// transport's shared namespace): another reader serves the engagement in mdoc central
    /// client mode.
    public static let serviceInUse = Self("serviceInUse")
    /// The transport cannot be opened here: no such device, no Bluetooth in the kernel, an
    /// adapter in use, or no permission; the reason says what to do.
    public static let transportUnavailable = Self("transportUnavailable")
}
