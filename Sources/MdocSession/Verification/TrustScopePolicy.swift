import MdocCrypto
import MdocModel

/// A trust anchor anchors only the document types it is trusted for: an IACA that a VICAL lists
/// is listed with the document types it may anchor (ISO/IEC 18013-5 Annex C.1.7,
/// `CertificateInfo.docType`), and a document of another type under it is not trusted.
///
/// An application rule, added after ``StandardDocumentPolicy`` by a reader that trusts scoped
/// anchors:
///
/// ```swift
/// let scopes = TrustScopePolicy(scopes: [iaca: [DocType.mDL]])
/// DeviceResponseVerifier(trustAnchors: [iaca], sessionTranscript: transcript) {
///     StandardDocumentPolicy()
///     scopes
/// }
/// ```
/// It records one ``VerificationCheck/Kind/trustScope`` check on the trust anchor, failing with
/// ``VerificationFailure/Code/outOfTrustScope``; a failure is one of issuer data
/// authentication, so no element of the document is then issuer-authenticated. An anchor with
/// no scope anchors any document type.
public struct TrustScopePolicy: DocumentVerifierPolicy {
    /// The document types each scoped trust anchor may anchor.
    public var scopes: [Certificate: Set<String>]

    /// The policy for `scopes`.
    public init(scopes: [Certificate: Set<String>]) {
        self.scopes = scopes
    }

    /// Records the check. Without a document signer chain validated to a trust anchor there is
    /// no anchor whose scope applies, and the check is recorded as not made.
    public func evaluate(_ verification: inout DocumentVerification) {
        let docType = verification.document.docType
        guard let anchor = verification.trustAnchor else {
            verification.record(VerificationCheck(
                .trustScope, subject: .x5chain(of: .issuerAuth), outcome: .skipped("the document signer chain did not validate to a trust anchor")))
            return
        }
        guard let scope = scopes[anchor] else {
            verification.record(VerificationCheck(
                .trustScope, subject: .certificate(anchor), outcome: .passed, detail: "\"\(anchor.subject)\" anchors any document type"))
            return
        }
        let listed = scope.sorted().joined(separator: ", ")
        if scope.contains(docType) {
            verification.record(VerificationCheck(
                .trustScope, subject: .certificate(anchor), outcome: .passed, detail: "\"\(anchor.subject)\" anchors \(docType) (of \(listed))"))
        } else {
            verification.record(VerificationCheck(
                .trustScope, subject: .certificate(anchor),
                outcome: .failed(.outOfTrustScope, "\"\(anchor.subject)\" is trusted for \(listed) only, not for \(docType)")))
        }
    }
}
