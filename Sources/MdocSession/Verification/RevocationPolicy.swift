import MdocCBOR
import MdocCrypto
import MdocModel

/// Neither the document nor a certificate that vouches for it has been revoked, as the
/// application's ``RevocationChecker`` says: an application rule, not part of
/// ``StandardDocumentPolicy``, for readers that hold status information (ISO/IEC 18013-5 leaves
/// how a reader learns of revoked document signers and documents to the issuing authority's
/// ecosystem).
///
/// The checker is asked once per document whose signer chain validated, with the validated
/// path and the MSO's `status` entry; the answer is one ``VerificationCheck/Kind/revocation``
/// check on the issuerAuth. A revoked document fails issuer data authentication
/// (``VerificationFailure/Code/revoked``), a suspended one too
/// (``VerificationFailure/Code/suspended``), and so does one whose status is unknown unless the
/// policy accepts that (``UnknownStatus/accept``, a "soft fail", recorded as passed with the
/// reason in the detail). What was found is also the report's ``DocumentReport/status``.
public struct RevocationPolicy<Checker: RevocationChecker>: DocumentVerifierPolicy {
    /// What to make of a status the checker does not know.
    public enum UnknownStatus: Sendable, Hashable {
        /// The check fails with ``VerificationFailure/Code/revocationStatusUnknown``.
        case fail
        /// The check passes, its detail saying that the status is unknown and why.
        case accept
    }

    /// The application's status information.
    public var checker: Checker
    /// What an unknown status leads to.
    public var unknownStatus: UnknownStatus

    /// A policy asking `checker`, failing a document whose status is unknown unless
    /// `unknownStatus` is ``UnknownStatus/accept``.
    public init(_ checker: Checker, unknownStatus: UnknownStatus = .fail) {
        self.checker = checker
        self.unknownStatus = unknownStatus
    }

    /// Records the check. Without a validated document signer chain there is nothing to ask
    /// about, and the check is recorded as not made.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let path = verification.chainValidation?.validatedPath else {
            verification.record(VerificationCheck(
                .revocation, subject: .issuerAuth, outcome: .skipped("the document signer chain did not validate to a trust anchor")))
            return
        }
        let status = verification.decodedMobileSecurityObject()?.value.additionalEntries[text: "status"]
        let query = RevocationQuery(docType: verification.document.docType, certificatePath: path, status: status, time: verification.time)
        let answer = checker.status(of: query)
        let check: VerificationCheck
        let documentStatus: DocumentStatus
        switch answer {
        case .good(let detail):
            check = VerificationCheck(.revocation, subject: .issuerAuth, outcome: .passed, detail: detail)
            documentStatus = DocumentStatus(.valid, reason: detail, accepted: true, query: query)
        case .revoked(let reason):
            check = VerificationCheck(.revocation, subject: .issuerAuth, outcome: .failed(.revoked, reason))
            documentStatus = DocumentStatus(.invalid, reason: reason, accepted: false, query: query)
        case .suspended(let reason):
            check = VerificationCheck(.revocation, subject: .issuerAuth, outcome: .failed(.suspended, reason))
            documentStatus = DocumentStatus(.suspended, reason: reason, accepted: false, query: query)
        case .unknown(let reason) where unknownStatus == .accept:
            check = VerificationCheck(
                .revocation, subject: .issuerAuth, outcome: .passed, detail: "the revocation status is unknown, which this reader accepts: \(reason)")
            documentStatus = DocumentStatus(.notChecked, reason: reason, accepted: true, query: query)
        case .unknown(let reason):
            check = VerificationCheck(.revocation, subject: .issuerAuth, outcome: .failed(.revocationStatusUnknown, reason))
            documentStatus = DocumentStatus(.notChecked, reason: reason, accepted: false, query: query)
        }
        // A document whose MSO names no status, found good, has no status to report.
        if status != nil || documentStatus.value != .valid {
            verification.documentStatus = documentStatus
        }
        verification.record(check)
    }
}
