import MdocCOSE
import MdocCrypto
import MdocModel

/// The IssuerAuth signature (ISO/IEC 18013-5 9.1.2.4, 9.3.1 step 2): the COSE_Sign1 over
/// MobileSecurityObjectBytes, as received, verifies with the document signer's public key.
///
/// The document signer is the first certificate of the `x5chain`, which the issuer profile
/// (``DocumentSignerPolicy``) parses and validates before; when there is none, the check is
/// recorded as not made.
public struct IssuerSignaturePolicy: DocumentVerifierPolicy {
    /// The policy.
    public init() {}

    /// Records the ``VerificationCheck/Kind/issuerSignature`` check.
    public func evaluate(_ verification: inout DocumentVerification) {
        guard let documentSigner = verification.documentSigner else {
            verification.record(VerificationCheck(
                .issuerSignature, subject: .issuerAuth, outcome: .skipped("no usable document signer certificate")))
            return
        }
        let issuerAuth = verification.document.issuerSigned.issuerAuth
        let valid = issuerAuth.isValidSignature(publicKey: documentSigner.publicKey)
        let algorithm = issuerAuth.algorithm.map { "\($0)" } ?? "no algorithm"
        verification.record(VerificationCheck(
            .issuerSignature, subject: .issuerAuth,
            outcome: valid
                ? .passed
                : .failed(.invalidSignature, "the IssuerAuth signature (\(algorithm)) does not verify with the key of \"\(documentSigner.subject)\""),
            detail: "\(algorithm) by \"\(documentSigner.subject)\""))
    }
}
