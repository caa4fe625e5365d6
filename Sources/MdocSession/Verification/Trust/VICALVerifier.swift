import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies a signed VICAL (ISO/IEC 18013-5 Annex C.1.7) against the VICAL anchors a reader
/// trusts, and checks each of its entries.
///
/// An anchor is either a VICAL provider's root, to which the signer's `x5chain` must validate
/// under the VICAL signer profile (extended key usage 1.0.18013.5.1.8), or the VICAL signer
/// certificate itself, pinned: the `x5chain`'s first certificate must then be that certificate,
/// valid at the verification time.
///
/// ```swift
/// let verification = VICALVerifier(anchors: [vicalRoot]).verify(try SignedVICAL(encoded: bytes), at: Date())
/// guard verification.isVerified else { print(verification.failures); return }
/// for entry in verification.trustedEntries { print(entry.certificate!.subject, entry.docTypes) }
/// ```
/// The signature is checked over the payload bytes as received. Entries whose fields disagree
/// with their certificate, or whose certificate is not a valid self-signed IACA, are set aside
/// with their problems; the rest of the list still counts.
public struct VICALVerifier: Sendable {
    /// How far in the future a VICAL's `date` may lie, for clocks that disagree a little.
    public static let allowedClockSkew: TimeInterval = 300

    /// The VICAL roots and pinned VICAL signer certificates.
    public let anchors: [Certificate]
    private let validator: CertificateChainValidator

    /// A verifier trusting `anchors`.
    public init(anchors: [Certificate]) {
        self.anchors = anchors
        validator = CertificateChainValidator(trustAnchors: anchors)
    }

    /// Verifies `signed` at `time`.
    public func verify(_ signed: SignedVICAL, at time: Date) -> VICALVerification {
        let vical = signed.vical
        var failures: [VICALVerification.Failure] = []
        func fail(_ check: VICALVerification.Check, _ reason: String) {
            failures.append(VICALVerification.Failure(check: check, reason: reason))
        }
        if vical.version.split(separator: ".", omittingEmptySubsequences: false).first != "1" {
            fail(.version, "version \"\(vical.version)\" is not one this toolkit reads (1.x)")
        }
        if vical.date.date > time.addingTimeInterval(Self.allowedClockSkew) {
            fail(.date, "issued on \(vical.date), after the verification time \(TDate(time))")
        }
        var chain: [Certificate] = []
        for (index, der) in signed.message.x5chain.enumerated() {
            do {
                chain.append(try Certificate(derEncoded: der))
            } catch {
                fail(.signerCertificate, "certificate \(index) of the x5chain does not parse: \(error.reason)")
            }
        }
        let signer = chain.count == signed.message.x5chain.count ? chain.first : nil
        var pinned = false
        var signerChain: CertificateValidationResult?
        if signed.message.x5chain.isEmpty {
            fail(.signerCertificate, "the COSE_Sign1 carries no x5chain with the VICAL signer certificate")
        } else if let signer {
            pinned = anchors.contains { $0.derRepresentation == signer.derRepresentation }
            if pinned {
                if time < signer.notValidBefore || time >= signer.notValidAfter {
                    fail(
                        .signerChain,
                        "the pinned VICAL signer \"\(signer.subject)\" is valid from \(TDate(signer.notValidBefore)) until \(TDate(signer.notValidAfter)), not at \(TDate(time))"
                    )
                }
            } else {
                let result = validator.validate(chain: chain, profile: .vicalSigner, at: time)
                signerChain = result
                for failure in result.failures { fail(.signerChain, "\(failure)") }
            }
            if !signed.message.isValidSignature(publicKey: signer.publicKey) {
                let algorithm = signed.message.algorithm.map { "\($0)" } ?? "no algorithm"
                fail(.signature, "the signature (\(algorithm)) does not verify with the key of \"\(signer.subject)\"")
            }
        }
        let entries = vical.certificateInfos.enumerated().map { index, info in Self.entry(info, at: index, time: time) }
        return VICALVerification(
            vical: vical, time: time, signer: signer, signerIsPinned: pinned, signerChain: signerChain, failures: failures, entries: entries)
    }

    /// Checks one entry against its certificate.
    package static func entry(_ info: VICAL.CertificateInfo, at index: Int, time: Date) -> VICALVerification.Entry {
        let certificate: Certificate
        do {
            certificate = try Certificate(derEncoded: info.certificate)
        } catch {
            let problem = VICALVerification.Problem(check: .certificate, reason: "not a certificate: \(error.reason)")
            return VICALVerification.Entry(index: index, info: info, certificate: nil, problems: [problem])
        }
        var problems: [VICALVerification.Problem] = []
        func problem(_ check: VICALVerification.EntryCheck, _ reason: String) {
            problems.append(VICALVerification.Problem(check: check, reason: reason))
        }
        if Self.magnitude(info.serialNumber) != Self.magnitude(certificate.serialNumberBytes) {
            problem(.serialNumber, "\(Hex.encode(info.serialNumber)) is not the certificate's serial number \(certificate.serialNumber)")
        }
        if let identifier = certificate.subjectKeyIdentifier {
            if info.ski != identifier {
                problem(.ski, "\(Hex.encode(info.ski)) is not the certificate's subjectKeyIdentifier \(Hex.encode(identifier))")
            }
        } else if info.ski != certificate.publicKeyIdentifier {
            problem(
                .ski,
                "\(Hex.encode(info.ski)) is not the identifier of the certificate's public key \(Hex.encode(certificate.publicKeyIdentifier)) (it has no subjectKeyIdentifier)"
            )
        }
        if let issuer = info.issuer, issuer != certificate.issuerNameDER {
            problem(.issuer, "the issuer Name is not the certificate's (\"\(certificate.issuer)\")")
        }
        if let subject = info.subject, subject != certificate.subjectNameDER {
            problem(.subject, "the subject Name is not the certificate's (\"\(certificate.subject)\")")
        }
        if let notBefore = info.notBefore, notBefore.date != certificate.notValidBefore {
            problem(.validityFields, "notBefore \(notBefore) is not the certificate's \(TDate(certificate.notValidBefore))")
        }
        if let notAfter = info.notAfter, notAfter.date != certificate.notValidAfter {
            problem(.validityFields, "notAfter \(notAfter) is not the certificate's \(TDate(certificate.notValidAfter))")
        }
        if !certificate.isSelfSigned {
            problem(.iacaProfile, "\"\(certificate.subject)\" is not self-signed (issued by \"\(certificate.issuer)\"), so it cannot be a trust anchor")
        }
        for failure in certificate.profileConformance(as: .iaca).failures {
            problem(.iacaProfile, "\(failure.check): \(failure.reason)")
        }
        if time < certificate.notValidBefore {
            problem(.validity, "not valid before \(TDate(certificate.notValidBefore))")
        } else if time >= certificate.notValidAfter {
            problem(.validity, "expired on \(TDate(certificate.notValidAfter))")
        }
        return VICALVerification.Entry(index: index, info: info, certificate: certificate, problems: problems)
    }

    /// `bytes` without leading zero octets: a serial number's magnitude however it is padded.
    private static func magnitude(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.drop { $0 == 0 }
    }
}
