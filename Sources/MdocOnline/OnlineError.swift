import MdocErrors

/// Why an input of online presentation was refused (ISO/IEC TS 18013-7, OpenID4VP 1.0): a key
/// that has no JWK form this module writes, a JWE that does not parse or is not one this module
/// accepts. The code names the check that failed; the reason says what was found and where.
///
/// Equality compares the code only.
public typealias OnlineError = MdocError<OnlineErrorDomain>

/// The domain of ``OnlineError``: its errors print their code before the reason.
public enum OnlineErrorDomain: CodeNamingErrorDomain {}

extension ErrorKind where Domain == OnlineError {
    /// The key has no JWK form here: a curve with no JOSE name (RFC 7518 section 6.2.1.1 names
    /// P-256, P-384 and P-521).
    public static let unsupportedKey = Self("unsupportedKey")
}
