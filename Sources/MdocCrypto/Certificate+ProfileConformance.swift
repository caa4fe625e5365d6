#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Certificate {
    /// Checks this certificate on its own against the ISO/IEC 18013-5 Annex B profile of
    /// `role`, with the same checks chain validation makes for that place in a path
    /// (``CertificateChainValidator``), for people who inspect a certificate and ask which
    /// profile it fits and where it does not.
    ///
    /// - End-entity roles (document signer, reader authentication): digitalSignature key
    ///   usage; an extended key usage the mdoc ecosystems define for the role
    ///   (``CertificateProfile/knownExtendedKeyUsageOIDs``); not a CA; a subject key identifier
    ///   and an authority key identifier, equal to `issuer`'s subject key identifier when
    ///   `issuer` is given.
    /// - Root roles (IACA, reader root): cA true with a pathLenConstraint; keyCertSign and
    ///   cRLSign; a subject key identifier.
    /// - Both: an ECDSA or EdDSA signature algorithm; no critical extension the validator does
    ///   not process.
    ///
    /// The validity period is not looked at, nor whether a root is self-signed: neither is a
    /// matter of the profile. The result's ``CertificateValidationResult/path`` is this
    /// certificate alone.
    public func profileConformance(as role: CertificateBuilder.Profile, issuer: Certificate? = nil) -> CertificateValidationResult {
        let profile = role.chainProfile
        let policy = CertificateProfilePolicy(
            profile: profile, purposes: profile.knownExtendedKeyUsageOIDs, time: notValidBefore)
        var report = CertificateValidationReport()
        policy.evaluate(self, asRoot: role.isRoot, issuer: issuer, into: &report)
        return report.result(path: [self])
    }
}
