/// The answers chain validation takes from one certificate alone, whatever the path it is on,
/// the validation time or the extended key usages accepted: made once, when the certificate is
/// parsed, so that a verifier meeting the same document signer again (through its cache of
/// parsed `x5chain` certificates) asks OpenSSL none of them again.
///
/// Each is the answer the check that reads it would compute: ``OneHopPathValidation``'s
/// `check_curve` and `X509_self_signed` rules (RFC 5280 section 6.1 as OpenSSL 3.0 applies it)
/// and ``CertificateProfilePolicy``'s signature algorithm and critical extension checks
/// (ISO/IEC 18013-5 Annex B, RFC 5280 section 4.2). Everything that depends on another
/// certificate, on the time or on the accepted purposes is still decided at each validation.
struct CertificateIntrinsics: Sendable {
    /// The subject public key was not given with explicit curve parameters (OpenSSL's
    /// `check_curve`).
    let hasNamedCurve: Bool
    /// The certificate is self-issued, any authority key identifier names its own key and its
    /// signature algorithm is one for its own key: what OpenSSL's `X509_self_signed` asks besides
    /// the signature itself.
    let namesItselfAsIssuer: Bool
    /// The signature algorithm is one ISO/IEC 18013-5 Annex B allows
    /// (``Certificate/SignatureAlgorithm/iso18013_5Allowed``).
    let hasAllowedSignatureAlgorithm: Bool
    /// The dotted OIDs of the critical extensions whose meaning chain validation does not
    /// enforce (outside ``CertificateProfilePolicy/handledCriticalExtensions``), in certificate
    /// order.
    let unhandledCriticalExtensionOIDs: [String]

    /// The answers for the certificate whose fields, extension summary and key these are.
    init(
        fields: CertificateFields, summary: ExtensionSummary, publicKey: PublicKey, isSelfIssued: Bool,
        signatureAlgorithm: Certificate.SignatureAlgorithm, criticalExtensionOIDs: [String]
    ) {
        hasNamedCurve = OneHopPathValidation.hasNamedCurve(publicKey)
        namesItselfAsIssuer = isSelfIssued
            && OneHopPathValidation.keyIdentifiersMatch(summary.authorityKeyIdentifier, issuer: summary)
            && OneHopPathValidation.signatureAlgorithm(fields.tbsSignatureAlgorithm, isFor: publicKey)
        hasAllowedSignatureAlgorithm = Certificate.SignatureAlgorithm.iso18013_5Allowed.contains(signatureAlgorithm)
        unhandledCriticalExtensionOIDs = criticalExtensionOIDs.filter {
            !CertificateProfilePolicy.handledCriticalExtensions.contains($0)
        }
    }
}
