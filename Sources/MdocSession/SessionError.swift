import MdocErrors

/// A failure of session establishment or of message protection (ISO/IEC 18013-5 9.1.1).
///
/// Equality compares the code only.
public typealias SessionError = MdocError<SessionErrorDomain>

/// The domain of ``SessionError``.
public enum SessionErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == SessionError {
    /// Key agreement or key derivation failed (for example an invalid peer key).
    public static let keyDerivationFailed = Self("keyDerivationFailed")
    /// A message did not decrypt: wrong key, counter out of sequence, or altered bytes
    /// (SessionData status 10).
    public static let decryptionFailed = Self("decryptionFailed")
    /// Encryption failed inside the crypto library.
    public static let encryptionFailed = Self("encryptionFailed")
    /// A message counter would wrap; the session must end.
    public static let counterExhausted = Self("counterExhausted")
    /// The cipher suite is not one 18013-5 defines (only 1 is).
    public static let unsupportedCipherSuite = Self("unsupportedCipherSuite")
    /// A message, or the request or response it carried, did not decode as the structure
    /// expected (SessionData status 11).
    public static let messageDecodingFailed = Self("messageDecodingFailed")
    /// A message arrived that the session does not expect in its current state, such as a
    /// SessionData with neither data nor status, or a response nobody asked for.
    public static let unexpectedMessage = Self("unexpectedMessage")
    /// The peer ended the session with an error status (10, 11 or a status 18013-5 does not
    /// define).
    public static let peerReportedError = Self("peerReportedError")
    /// The transport ended before the session reached a normal end.
    public static let transportEndedEarly = Self("transportEndedEarly")
    /// The device engagement cannot start a session (for example a key on a curve without
    /// key agreement).
    public static let invalidEngagement = Self("invalidEngagement")
    /// The session was asked to do something its state does not allow (a programming error
    /// of the caller, such as a consent decision with no request pending).
    public static let invalidState = Self("invalidState")
    /// Building a request or response failed (signing, MAC or encoding).
    public static let messageConstructionFailed = Self("messageConstructionFailed")
}
