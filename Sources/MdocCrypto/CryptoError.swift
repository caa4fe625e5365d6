import MdocErrors

/// A failure in a cryptographic operation or in decoding key or certificate material.
///
/// Equality compares the code only. Authentication failures say nothing about why a tag or
/// signature did not verify, after swift-crypto's `authenticationFailure`.
public typealias CryptoError = MdocError<CryptoErrorDomain>

/// The domain of ``CryptoError``.
public enum CryptoErrorDomain: ErrorDomain {}

extension ErrorKind where Domain == CryptoError {
    /// Key material that does not decode (bad length, bad encoding, wrong key type).
    public static let invalidKey = Self("invalidKey")
    /// A public point that is not on the expected curve, or the identity.
    public static let invalidPoint = Self("invalidPoint")
    /// Two keys that must share a curve do not.
    public static let curveMismatch = Self("curveMismatch")
    /// The operation is not defined for this curve or algorithm.
    public static let unsupportedAlgorithm = Self("unsupportedAlgorithm")
    /// An AEAD tag that does not verify.
    public static let authenticationFailure = Self("authenticationFailure")
    /// A parameter of the wrong size (key, nonce, tag, signature).
    public static let invalidParameter = Self("invalidParameter")
    /// A certificate or other encoded structure that does not parse.
    public static let invalidEncoding = Self("invalidEncoding")
    /// OpenSSL reported an internal failure.
    public static let libraryFailure = Self("libraryFailure")
}
