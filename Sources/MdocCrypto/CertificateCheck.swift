/// One check of certificate chain validation (RFC 5280 section 6.1 and the ISO/IEC 18013-5
/// Annex B profiles). Named after what fails; new checks may be added without breaking callers.
public struct CertificateCheck: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    private init(_ name: String) { self.name = name }
    public var description: String { name }

    /// The certificate is outside its validity period at the validation time (RFC 5280 section 4.1.2.5).
    public static let validity = CertificateCheck("validity")
    /// The issuer's key does not verify the certificate signature (RFC 5280 section 6.1.3 (a)(1)).
    public static let signature = CertificateCheck("signature")
    /// No path leads to a trust anchor (RFC 5280 section 6.1).
    public static let issuerNotTrusted = CertificateCheck("issuerNotTrusted")
    /// A key usage bit the profile requires is missing (RFC 5280 section 4.2.1.3).
    public static let keyUsage = CertificateCheck("keyUsage")
    /// The extended key usage lacks the profile's purpose (RFC 5280 section 4.2.1.12).
    public static let extendedKeyUsage = CertificateCheck("extendedKeyUsage")
    /// The cA flag is wrong for the certificate's place in the path (RFC 5280 section 4.2.1.9).
    public static let basicConstraints = CertificateCheck("basicConstraints")
    /// A pathLenConstraint is missing or does not permit the path (RFC 5280 section 4.2.1.9).
    public static let pathLength = CertificateCheck("pathLength")
    /// The signature algorithm is not one ISO/IEC 18013-5 Annex B allows.
    public static let signatureAlgorithm = CertificateCheck("signatureAlgorithm")
    /// A subject or authority key identifier is missing or does not match the issuer's
    /// (RFC 5280 sections 4.2.1.1 and 4.2.1.2).
    public static let keyIdentifiers = CertificateCheck("keyIdentifiers")
    /// A critical extension the validator does not process (RFC 5280 section 4.2).
    public static let criticalExtension = CertificateCheck("criticalExtension")
    /// The path is longer than ``CertificateChainValidator/maximumChainLength``.
    public static let chainTooLong = CertificateCheck("chainTooLong")
    /// The chain to validate holds no certificate.
    public static let emptyChain = CertificateCheck("emptyChain")
    /// Any other path validation error OpenSSL reports (RFC 5280 section 6.1).
    public static let pathValidation = CertificateCheck("pathValidation")
}
