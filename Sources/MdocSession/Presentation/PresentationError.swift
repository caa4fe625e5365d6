/// A failure to build a DeviceResponse (ISO/IEC 18013-5 8.3.2.1.2.2, 9.1.3): the mdoc cannot
/// authenticate a document it was asked to return.
///
/// Equality compares the code only.
public struct PresentationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name, as tests and logs print it.
        public var description: String { name }

        /// The device key can neither sign (it is an X25519 or X448 key) nor MAC with this
        /// reader's key (another curve), or the policy asks for a signature it cannot make.
        public static let deviceAuthenticationUnavailable = Code("deviceAuthenticationUnavailable")
        /// Key agreement, key derivation or signing failed inside the crypto library, for
        /// example because the reader's ephemeral key is not a valid point.
        public static let deviceAuthenticationFailed = Code("deviceAuthenticationFailed")
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
    public static func == (lhs: PresentationError, rhs: PresentationError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, matching `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
