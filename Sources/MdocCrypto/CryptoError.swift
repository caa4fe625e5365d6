/// A failure in a cryptographic operation or in decoding key or certificate material.
///
/// Equality compares the code only. Authentication failures say nothing about why a tag or
/// signature did not verify, after swift-crypto's `authenticationFailure`.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. New codes may be added without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// Key material that does not decode (bad length, bad encoding, wrong key type).
        public static let invalidKey = Code("invalidKey")
        /// A public point that is not on the expected curve, or the identity.
        public static let invalidPoint = Code("invalidPoint")
        /// Two keys that must share a curve do not.
        public static let curveMismatch = Code("curveMismatch")
        /// The operation is not defined for this curve or algorithm.
        public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// An AEAD tag that does not verify.
        public static let authenticationFailure = Code("authenticationFailure")
        /// A parameter of the wrong size (key, nonce, tag, signature).
        public static let invalidParameter = Code("invalidParameter")
        /// A certificate or other encoded structure that does not parse.
        public static let invalidEncoding = Code("invalidEncoding")
        /// OpenSSL reported an internal failure.
        public static let libraryFailure = Code("libraryFailure")
    }

    /// What kind of failure this is.
    public var code: Code
    /// What was wrong, for people.
    public var reason: String

    /// A failure of kind `code`, explained by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }

    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
