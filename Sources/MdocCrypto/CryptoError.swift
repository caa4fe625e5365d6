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
    /// An input longer than the limit the operation names (``HPKE/maximumPlaintextByteCount``).
    public static let inputTooLarge = Self("inputTooLarge")
    /// OpenSSL reported an internal failure.
    public static let libraryFailure = Self("libraryFailure")
    /// The OpenSSL provider of a token or TPM (pkcs11-provider, tpm2-openssl) or the PKCS#11
    /// module it needs is not installed, or does not start.
    public static let providerUnavailable = Self("providerUnavailable")
    /// The token or TPM is not there: no token matches, or the TPM does not answer.
    public static let keyStoreUnavailable = Self("keyStoreUnavailable")
    /// The token or TPM has no such key.
    public static let keyNotFound = Self("keyNotFound")
    /// The token already holds a key of the name a new key was to get.
    public static let keyExists = Self("keyExists")
    /// The token refused the login, or the TPM a key's authorization value: a wrong PIN, no PIN,
    /// or (for a token that does not say which) a PIN locked after too many tries.
    public static let loginFailed = Self("loginFailed")
    /// The token or TPM accepts no PIN for now: a token's PIN locked after too many wrong ones,
    /// or a TPM in dictionary-attack lock-out (TPM 2.0 Part 1, 19.8.3).
    public static let lockedOut = Self("lockedOut")
    /// A key held by a token or TPM refused the operation: made for signing only and asked to
    /// agree a key, or the reverse.
    public static let operationNotPermitted = Self("operationNotPermitted")
}
