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
