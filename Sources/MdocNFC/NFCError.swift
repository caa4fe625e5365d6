import MdocErrors

/// Why an NFC exchange failed: a malformed APDU, NDEF or handover structure from the peer, an
/// unexpected status word, a limit exceeded, or the end of the connection (ISO/IEC 7816-4, NFC
/// Forum Type 4 Tag, Connection Handover, ISO/IEC 18013-5 8.2.2.1 and 8.3.3.1.2).
public typealias NFCError = MdocError<NFCErrorDomain>

/// The domain of ``NFCError``: an error about bytes says at which byte the problem was found.
public enum NFCErrorDomain: CodeNamingErrorDomain {
    /// The offset in the bytes where the problem was found, when the error is about bytes.
    public typealias Context = Int?

    /// `code: reason`, and the offset when there is one.
    public static func description(of error: NFCError) -> String {
        guard let offset = error.context else { return "\(error.code): \(error.reason)" }
        return "\(error.code): \(error.reason) (byte \(offset))"
    }
}

extension MdocError where Domain == NFCErrorDomain {
    /// The offset in the bytes where the problem was found, when the error is about bytes.
    public var offset: Int? { context }

    /// A failure of `code` at `offset`, made at `fileID`, `line` (the caller's place, unless
    /// given).
    public init(_ code: Code, _ reason: String, offset: Int, fileID: String = #fileID, line: Int = #line) {
        self.init(code, reason, context: offset, fileID: fileID, line: line)
    }
}

extension ErrorKind where Domain == NFCError {
    /// The bytes end before a field they declare (an APDU, a TLV, a record payload).
    public static let truncated = Self("truncated")
    /// Bytes are left after a structure that should fill them.
    public static let trailingBytes = Self("trailingBytes")
    /// A length field or a field's value breaks its encoding rules (ISO/IEC 7816-4 5.1, BER-TLV
    /// lengths, a capability container's fields).
    public static let malformed = Self("malformed")
    /// A length is outside what this toolkit, the peer or the standard allows: the limits are
    /// named constants where the length is checked.
    public static let limitExceeded = Self("limitExceeded")
    /// An NDEF message, a handover message or a carrier record is not what ISO/IEC 18013-5
    /// 8.2.2.1 exchanges (for instance, no DeviceEngagement record).
    public static let invalidHandover = Self("invalidHandover")
    /// The card answered with a status word other than the ones the step allows.
    public static let unexpectedStatus = Self("unexpectedStatus")
    /// The peer broke the order of the protocol (a GET RESPONSE with nothing to get, an answer
    /// sent when no message waits for one, a TNEP status other than success).
    public static let protocolViolation = Self("protocolViolation")
    /// The NDEF application stayed unavailable (a locked phone answers `6A82`) for longer than
    /// the reader's bound, or a TNEP answer did not come within its wait time.
    public static let timedOut = Self("timedOut")
    /// The connection to the peer ended: the field dropped (power off), or the reader selected
    /// an application again and so started over.
    public static let connectionLost = Self("connectionLost")
    /// The command channel could not carry the command (the PC/SC reader or the test's channel
    /// failed).
    public static let transmissionFailed = Self("transmissionFailed")
    /// The task waiting for the exchange was cancelled.
    public static let cancelled = Self("cancelled")
}
