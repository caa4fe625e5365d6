#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ISO/IEC 18013-5 Annex B certificate profile checks, run on a path OpenSSL built
/// (leaf first): what RFC 5280 path validation leaves to the application.
///
/// - End-entity (document signer, reader authentication or VICAL signer certificate):
///   digitalSignature key usage (a VICAL signer's may be nonRepudiation instead); one of the accepted extended key usages (the profile's own unless the caller
///   accepts others); not a CA; subject key identifier present and
///   authority key identifier equal to the issuer's subject key identifier.
/// - Root (IACA or reader root): cA true with a pathLenConstraint that permits the path (Annex B
///   sets it to 0); keyCertSign and cRLSign; subject key identifier present.
/// - Intermediate CAs (not used by Annex B, allowed when the root's pathLenConstraint permits
///   them): cA true, keyCertSign, both key identifiers, the authority one matching its issuer.
/// - Every certificate: valid at the validation time (from notBefore inclusive to notAfter
///   exclusive, as OpenSSL's `X509_cmp_time` decides, so that both layers agree); signed with ECDSA (SHA-256/384/512) or
///   EdDSA; no critical extension outside ``handledCriticalExtensions``.
struct CertificateProfilePolicy {
    /// The critical extensions whose meaning this validator enforces: key usage (2.5.29.15),
    /// extended key usage (2.5.29.37) and basic constraints (2.5.29.19) here and in OpenSSL;
    /// subject and issuer alternative names (2.5.29.17, 2.5.29.18) and name constraints
    /// (2.5.29.30) in OpenSSL (RFC 5280 section 4.2).
    static let handledCriticalExtensions: Set<String> = [
        "2.5.29.15", "2.5.29.37", "2.5.29.19", "2.5.29.17", "2.5.29.18", "2.5.29.30",
    ]

    let profile: CertificateProfile
    /// The extended key usages the end-entity certificate may carry, one being enough.
    let purposes: [String]
    let time: Date

    /// Checks every certificate of `path`. Its last element gets the root checks when it is a
    /// trust anchor (`anchored`) or, in a chain that reached none, when it is self-issued.
    func evaluate(path: [Certificate], anchored: Bool, into report: inout CertificateValidationReport) {
        for (index, certificate) in path.enumerated() {
            let issuer = index + 1 < path.count ? path[index + 1] : nil
            checkValidity(certificate, into: &report)
            if index == 0 {
                checkLeaf(certificate, issuer: issuer, into: &report)
            } else if index == path.count - 1 && (anchored || certificate.isSelfIssued) {
                checkRoot(certificate, intermediateCount: path.count - 2, into: &report)
            } else {
                checkIntermediate(certificate, issuer: issuer, caCertificatesBelow: index - 1, into: &report)
            }
            checkCommon(certificate, into: &report)
        }
    }

    /// Checks `certificate` on its own in one place of an Annex B path, as the end-entity
    /// certificate or (`asRoot`) as the root, against `issuer` when it is known: the checks of
    /// ``evaluate(path:anchored:into:)`` for that place, without the validity period.
    func evaluate(_ certificate: Certificate, asRoot: Bool, issuer: Certificate?, into report: inout CertificateValidationReport) {
        if asRoot {
            checkRoot(certificate, intermediateCount: 0, into: &report)
        } else {
            checkLeaf(certificate, issuer: issuer, into: &report)
        }
        checkCommon(certificate, into: &report)
    }

    private func checkValidity(_ certificate: Certificate, into report: inout CertificateValidationReport) {
        if time < certificate.notValidBefore {
            report.fail(
                certificate, .validity,
                "not valid before \(X509Time.rfc3339(certificate.notValidBefore)) (checked at \(X509Time.rfc3339(time)))"
            )
        } else if time >= certificate.notValidAfter {
            report.fail(
                certificate, .validity,
                "expired on \(X509Time.rfc3339(certificate.notValidAfter)) (checked at \(X509Time.rfc3339(time)))"
            )
        } else {
            report.pass(certificate, .validity, .validAt(time))
        }
    }

    private func checkLeaf(_ certificate: Certificate, issuer: Certificate?, into report: inout CertificateValidationReport) {
        let name = profile.leafName
        if profile == .vicalSigner, let usage = certificate.keyUsage, usage.contains(.nonRepudiation) {
            report.pass(certificate, .keyUsage, "keyUsage has nonRepudiation")
        } else {
            report.record(
                certificate, .keyUsage,
                failure: requiredKeyUsage(.digitalSignature, in: certificate, of: name),
                passed: "keyUsage has digitalSignature"
            )
        }
        let accepted = purposes.count == 1 ? purposes[0] : "one of \(purposes.joined(separator: ", "))"
        let usages = certificate.extendedKeyUsage
        let matched = usages?.first { purposes.contains($0) }
        let usageProblem: String?
        switch (usages, matched) {
        case (nil, _): usageProblem = "no extendedKeyUsage; a \(name) certificate needs \(accepted)"
        case (let usages?, nil):
            usageProblem = "extendedKeyUsage [\(usages.joined(separator: ", "))] lacks \(accepted) (\(name))"
        default: usageProblem = nil
        }
        report.record(certificate, .extendedKeyUsage, failure: usageProblem, passed: .extendedKeyUsage(matched ?? ""))
        report.record(
            certificate, .basicConstraints,
            failure: certificate.basicConstraints?.isCA == true ? "cA is true; a \(name) certificate must not be a CA" : nil,
            passed: "not a CA"
        )
        report.record(
            certificate, .keyIdentifiers,
            failure: keyIdentifierProblem(certificate, issuer: issuer),
            passed: issuer == nil
                ? "subjectKeyIdentifier and authorityKeyIdentifier present (the issuer is not known to match them)"
                : "subjectKeyIdentifier present, authorityKeyIdentifier matches the issuer"
        )
    }

    private func checkRoot(_ certificate: Certificate, intermediateCount: Int, into report: inout CertificateValidationReport) {
        let name = profile.rootName
        let constraints = certificate.basicConstraints
        report.record(
            certificate, .basicConstraints,
            failure: constraints?.isCA == true ? nil : "cA is not true; the \(name) must be a CA",
            passed: "cA is true"
        )
        let pathLengthProblem: String?
        if let limit = constraints?.pathLength {
            pathLengthProblem = intermediateCount > limit
                ? "pathLenConstraint \(limit) does not permit the \(intermediateCount) intermediate CA certificates of the path"
                : nil
        } else {
            pathLengthProblem = "no pathLenConstraint; ISO/IEC 18013-5 Annex B sets it (to 0) in the \(name)"
        }
        report.record(
            certificate, .pathLength, failure: pathLengthProblem,
            passed: .rootPathLength(constraints?.pathLength, intermediates: intermediateCount)
        )
        report.record(
            certificate, .keyUsage,
            failure: requiredKeyUsage([.keyCertSign, .cRLSign], in: certificate, of: name),
            passed: "keyUsage has keyCertSign, cRLSign"
        )
        report.record(
            certificate, .keyIdentifiers,
            failure: certificate.subjectKeyIdentifier == nil ? "no subjectKeyIdentifier (\(name))" : nil,
            passed: "subjectKeyIdentifier present"
        )
    }

    private func checkIntermediate(
        _ certificate: Certificate, issuer: Certificate?, caCertificatesBelow: Int, into report: inout CertificateValidationReport
    ) {
        let constraints = certificate.basicConstraints
        report.record(
            certificate, .basicConstraints,
            failure: constraints?.isCA == true ? nil : "cA is not true; an intermediate certificate must be a CA",
            passed: "cA is true"
        )
        if let limit = constraints?.pathLength {
            report.record(
                certificate, .pathLength,
                failure: caCertificatesBelow > limit
                    ? "pathLenConstraint \(limit) does not permit the \(caCertificatesBelow) CA certificates below it" : nil,
                passed: .intermediatePathLength(limit, below: caCertificatesBelow)
            )
        }
        report.record(
            certificate, .keyUsage,
            failure: requiredKeyUsage(.keyCertSign, in: certificate, of: "intermediate CA"),
            passed: "keyUsage has keyCertSign"
        )
        report.record(
            certificate, .keyIdentifiers,
            failure: keyIdentifierProblem(certificate, issuer: issuer),
            passed: "subjectKeyIdentifier present, authorityKeyIdentifier matches the issuer"
        )
    }

    private func checkCommon(_ certificate: Certificate, into report: inout CertificateValidationReport) {
        let algorithm = certificate.signatureAlgorithm
        report.record(
            certificate, .signatureAlgorithm,
            failure: certificate.intrinsics.hasAllowedSignatureAlgorithm
                ? nil : "\(algorithm.name) (\(algorithm.oid)) is not ECDSA with SHA-256/384/512 or EdDSA",
            passed: .text(algorithm.name)
        )
        let unhandled = certificate.intrinsics.unhandledCriticalExtensionOIDs
        report.record(
            certificate, .criticalExtension,
            failure: unhandled.isEmpty ? nil : "unhandled critical extension \(unhandled.joined(separator: ", "))",
            passed: "every critical extension is handled"
        )
    }

    private func requiredKeyUsage(
        _ required: Certificate.KeyUsage, in certificate: Certificate, of name: String
    ) -> String? {
        guard let usage = certificate.keyUsage else {
            return "no keyUsage; the \(name) certificate needs \(required)"
        }
        let missing = required.subtracting(usage)
        return missing.isEmpty ? nil : "keyUsage (\(usage)) lacks \(missing) (\(name))"
    }

    private func keyIdentifierProblem(_ certificate: Certificate, issuer: Certificate?) -> String? {
        guard certificate.subjectKeyIdentifier != nil else { return "no subjectKeyIdentifier" }
        guard let authority = certificate.authorityKeyIdentifier else { return "no authorityKeyIdentifier keyIdentifier" }
        guard let issuer else { return nil }
        guard let issuerKey = issuer.subjectKeyIdentifier else {
            return "the issuer \"\(issuer.subject)\" has no subjectKeyIdentifier to match the authorityKeyIdentifier"
        }
        return authority == issuerKey ? nil : "authorityKeyIdentifier does not match the subjectKeyIdentifier of \"\(issuer.subject)\""
    }
}
