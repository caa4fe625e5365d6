/// A failure of session establishment or of message protection (ISO/IEC 18013-5 9.1.1).
///
/// Equality compares the code only.
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name, as tests and logs print it.
        public var description: String { name }

        /// Key agreement or key derivation failed (for example an invalid peer key).
        public static let keyDerivationFailed = Code("keyDerivationFailed")
        /// A message did not decrypt: wrong key, counter out of sequence, or altered bytes
        /// (SessionData status 10).
        public static let decryptionFailed = Code("decryptionFailed")
        /// Encryption failed inside the crypto library.
        public static let encryptionFailed = Code("encryptionFailed")
        /// A message counter would wrap; the session must end.
        public static let counterExhausted = Code("counterExhausted")
        /// The cipher suite is not one 18013-5 defines (only 1 is).
        public static let unsupportedCipherSuite = Code("unsupportedCipherSuite")
        /// A message, or the request or response it carried, did not decode as the structure
        /// expected (SessionData status 11).
        public static let messageDecodingFailed = Code("messageDecodingFailed")
        /// A message arrived that the session does not expect in its current state, such as a
        /// SessionData with neither data nor status, or a response nobody asked for.
        public static let unexpectedMessage = Code("unexpectedMessage")
        /// The peer ended the session with an error status (10, 11 or a status 18013-5 does not
        /// define).
        public static let peerReportedError = Code("peerReportedError")
        /// The transport ended before the session reached a normal end.
        public static let transportEndedEarly = Code("transportEndedEarly")
        /// The device engagement cannot start a session (for example a key on a curve without
        /// key agreement).
        public static let invalidEngagement = Code("invalidEngagement")
        /// The session was asked to do something its state does not allow (a programming error
        /// of the caller, such as a consent decision with no request pending).
        public static let invalidState = Code("invalidState")
        /// Building a request or response failed (signing, MAC or encoding).
        public static let messageConstructionFailed = Code("messageConstructionFailed")
    }

    /// What kind of failure this is; compare this, not the message.
    public var code: Code
    /// What was wrong, for people.
    public var reason: String

    /// A failure of kind `code`, explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }

    /// Compares the codes only.
    public static func == (lhs: SessionError, rhs: SessionError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
