import MdocCrypto
import MdocModel

/// The MSO is valid at the verification time (ISO/IEC 18013-5 9.3.1 step 5): validFrom ≤ time ≤
/// validUntil, and it was signed while the document signer certificate was valid (9.1.2.4).
public struct MSOValidityPolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the ``VerificationCheck/Kind/validity`` check, when the MSO decodes.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let decoded = verification.decodedMobileSecurityObject() else { return }
        let mso = decoded.value
        let info = mso.validityInfo
        let time = verification.time
        let outcome: VerificationCheck.Outcome
        let window = { "valid from \(info.validFrom) until \(info.validUntil)" }
        let at = { TDate(time).text }
        if time < info.validFrom.date {
            outcome = .failed(.notYetValid, "the MSO is not yet valid at \(at()): \(window())")
        } else if time > info.validUntil.date {
            outcome = .failed(.expired, "the MSO expired: \(window()), checked at \(at())")
        } else if let signer = verification.documentSigner, info.signed.date < signer.notValidBefore || info.signed.date > signer.notValidAfter {
            outcome = .failed(
                .signedOutsideCertificateValidity, "the MSO was signed at \(info.signed), outside the validity of \"\(signer.subject)\"")
        } else {
            verification.record(VerificationCheck(
                .validity, subject: .mobileSecurityObject, outcome: .passed,
                detail: .validity(from: info.validFrom, until: info.validUntil, checkedAt: time)))
            return
        }
        verification.record(VerificationCheck(.validity, subject: .mobileSecurityObject, outcome: outcome))
    }
}
