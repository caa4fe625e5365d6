import MdocCOSE
import MdocCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The certificate step shared by issuer and reader authentication: parse the `x5chain` of a
/// COSE_Sign1 (COSE header 33, leaf first) and validate it to the trust anchors under an Annex B
/// profile, recording one check per outcome. A document signer's extended key usage is checked
/// against the ``DocumentSignerRule`` of the document's doc type, which the checks name.
struct X5ChainVerification {
    /// The leaf certificate, when the chain held one that parses. It is returned even when
    /// validation failed, so the caller can still say whether the signature itself holds.
    var leaf: Certificate?
    /// The trust anchor the chain validated to, or `nil`.
    var trustAnchor: Certificate?
    /// The checks made.
    var checks: [VerificationCheck] = []
    /// The certificates of the `x5chain`, leaf first, as far as they parse.
    var chain: [Certificate] = []
    /// Every check of chain validation, when the chain parsed and was validated.
    var validation: CertificateValidationResult?

    /// Verifies the `x5chain` of `signed`, which checks name `name` (``VerificationCheck/Subject/issuerAuth``
    /// or ``VerificationCheck/Subject/readerAuth``).
    init(
        _ signed: COSESign1, name: VerificationCheck.Subject, kind: VerificationCheck.Kind, profile: CertificateProfile,
        rule: DocumentSignerRule? = nil, validator: CertificateChainValidator, certificates: CertificateCache, time: Date
    ) {
        guard !signed.x5chain.isEmpty else {
            checks.append(VerificationCheck(
                kind, subject: .x5chain(of: name), outcome: .failed(.missingCertificateChain, "the \(name) has no x5chain (COSE header 33)")))
            return
        }
        for (position, der) in signed.x5chain.enumerated() {
            do {
                chain.append(try certificates.certificate(derEncoded: der))
            } catch {
                checks.append(VerificationCheck(
                    kind, subject: .x5chain(of: name, position: position), outcome: .failed(.unreadableCertificate, "\(error)")))
                return
            }
        }
        let leaf = chain[0]
        self.leaf = leaf
        let purposes = rule?.acceptedExtendedKeyUsages ?? [profile.extendedKeyUsageOID]
        let result = validator.validate(chain: chain, profile: profile, acceptingExtendedKeyUsages: purposes, at: time)
        validation = result
        guard result.isValid else {
            for failure in result.failures {
                var reason = "\(failure)"
                if let rule, failure.check == .extendedKeyUsage {
                    reason += ", which \(rule) requires for this doc type"
                }
                let subject = failure.certificate.map(VerificationCheck.Subject.certificate) ?? .x5chain(of: name)
                checks.append(VerificationCheck(kind, subject: subject, outcome: .failed(.certificate(failure.check), reason)))
            }
            return
        }
        let anchor = result.path.last
        trustAnchor = anchor
        let purpose = rule == nil ? nil : leaf.extendedKeyUsage?.first(where: purposes.contains)
        let detail = VerificationCheck.Text.chain(anchor: anchor?.subject ?? "", profile: profile, purpose: purpose, rule: rule)
        checks.append(VerificationCheck(kind, subject: .certificate(leaf), outcome: .passed, detail: detail))
    }
}
