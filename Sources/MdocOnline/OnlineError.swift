import MdocErrors

/// Why an input of online presentation was refused (ISO/IEC TS 18013-7, OpenID4VP 1.0): a key
/// that has no JWK form this module writes, a JWE that does not parse, is not one this module
/// accepts or does not decrypt. The code names the check that failed; the reason says what was found and where.
///
/// Equality compares the code only.
public typealias OnlineError = MdocError<OnlineErrorDomain>

/// The domain of ``OnlineError``: its errors print their code before the reason.
public enum OnlineErrorDomain: CodeNamingErrorDomain {}

extension ErrorKind where Domain == OnlineError {
    /// The key has no JWK form here: a curve with no JOSE name (RFC 7518 section 6.2.1.1 names
    /// P-256, P-384 and P-521).
    public static let unsupportedKey = Self("unsupportedKey")

    // JWE (RFC 7516 compact serialisation, RFC 7518 section 4.6 ECDH-ES).

    /// The JWE is longer than ``JWELimits/maximumCompactByteCount``, or its protected header than
    /// ``JWELimits/maximumHeaderByteCount``.
    public static let jweTooLarge = Self("jweTooLarge")
    /// The JWE does not parse: not five base64url parts, a header that is not a JSON object or
    /// has a member twice, a member of the wrong type, an encrypted key where ECDH-ES has none,
    /// an IV or tag of the wrong length.
    public static let malformedJWE = Self("malformedJWE")
    /// The JWE asks for what is not accepted: an `alg` other than `ECDH-ES`, an `enc` outside the
    /// allowlist, compression (`zip`) or critical extensions (`crit`).
    public static let unsupportedJWEAlgorithm = Self("unsupportedJWEAlgorithm")
    /// The `epk` is missing, not an EC P-256 public key, or not a point on the curve.
    public static let invalidEphemeralKey = Self("invalidEphemeralKey")
    /// The JWE does not decrypt with the recipient's key: another key, or altered bytes.
    public static let jweDecryptionFailed = Self("jweDecryptionFailed")
    /// Encrypting a JWE failed in the crypto library.
    public static let jweEncryptionFailed = Self("jweEncryptionFailed")
}
