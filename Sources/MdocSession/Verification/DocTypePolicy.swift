import MdocModel

/// The MSO is for the document's doc type (ISO/IEC 18013-5 9.3.1 step 4): its docType equals
/// the Document's, so that data signed for one kind of document is not presented as another.
public struct DocTypePolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the ``VerificationCheck/Kind/docType`` check, when the MSO decodes.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let decoded = verification.decodedMobileSecurityObject() else { return }
        let mso = decoded.value
        let docType = verification.document.docType
        verification.record(
            mso.docType == docType
                ? VerificationCheck(.docType, subject: .docType(docType), outcome: .passed)
                : VerificationCheck(
                    .docType, subject: .docType(docType),
                    outcome: .failed(.docTypeMismatch, "the MSO is for docType \"\(mso.docType)\", the document claims \"\(docType)\"")))
    }
}
