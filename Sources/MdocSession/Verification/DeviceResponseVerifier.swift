import MdocCBOR
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies a DeviceResponse the way an mdoc reader must (ISO/IEC 18013-5 9.3.1, "Inspection
/// procedure for issuer data authentication", and 9.1.3, mdoc authentication), producing a
/// ``VerificationReport`` that lists every check.
///
/// Each document is checked by the verifier's ``DocumentVerifierPolicy``, after swift-certificates'
/// `Verifier` and its policies. By default that is ``StandardDocumentPolicy``, the checks of the
/// standard: the document signer certificate in the issuerAuth `x5chain` must chain to a trust
/// anchor under the Annex B document-signer profile at the verification time, with an extended
/// key usage the ``DocumentSignerPolicy`` accepts for the document's doc type; the IssuerAuth
/// signature must verify with it; the MSO must decode, name the document's docType and an
/// allowed digest algorithm, and be valid at the time; every returned IssuerSignedItemBytes must
/// hash (as received) to its value digest; the DeviceSignature or DeviceMac must verify over
/// DeviceAuthenticationBytes built from the session transcript; and device-signed elements must
/// be allowed by the MSO KeyAuthorizations. An application adds rules of its own, or replaces one
/// of these, with a ``DocumentPolicyBuilder`` block:
///
/// ```swift
/// let verifier = DeviceResponseVerifier(trustAnchors: iacas, sessionTranscript: transcript) {
///     StandardDocumentPolicy()
///     IACACountryPolicy()
/// }
/// ```
///
/// The verification time is a parameter, never read from a clock here (docs/architecture.md rule 5).
public struct DeviceResponseVerifier: Sendable {
    private let validator: CertificateChainValidator
    private let certificates = CertificateCache()
    /// The transcript the response is bound to; without it device authentication is reported as
    /// not checked.
    public var sessionTranscript: SessionTranscriptBinding?
    /// The reader's ephemeral private key (EReaderKey), needed to derive EMacKey for DeviceMac.
    public var readerKey: PrivateKey?
    /// The policy every document is checked with.
    public var policy: any DocumentVerifierPolicy

    /// A verifier trusting `trustAnchors` (IACA certificates) that checks what the standard
    /// requires (``StandardDocumentPolicy``), document signers' extended key usages under
    /// `documentSignerPolicy`.
    public init(
        trustAnchors: [Certificate], documentSignerPolicy: DocumentSignerPolicy = .standard,
        sessionTranscript: SessionTranscriptBinding? = nil, readerKey: PrivateKey? = nil
    ) {
        self.init(trustAnchors: trustAnchors, sessionTranscript: sessionTranscript, readerKey: readerKey) {
            StandardDocumentPolicy(documentSigners: documentSignerPolicy)
        }
    }

    /// A verifier trusting `trustAnchors` (IACA certificates) that checks each document with the
    /// policies of `policy`, in order.
    public init(
        trustAnchors: [Certificate], sessionTranscript: SessionTranscriptBinding? = nil, readerKey: PrivateKey? = nil,
        @DocumentPolicyBuilder policy: () -> some DocumentVerifierPolicy
    ) {
        self.validator = CertificateChainValidator(trustAnchors: trustAnchors)
        self.sessionTranscript = sessionTranscript
        self.readerKey = readerKey
        self.policy = policy()
    }

    /// The trust anchors.
    public var trustAnchors: [Certificate] { validator.trustAnchors }

    /// Decodes and verifies an encoded DeviceResponse. Throws only when the bytes are not a
    /// DeviceResponse at all; every other failure is a check in the report.
    public func verify(_ encoded: [UInt8], at time: Date) throws(CBORError) -> VerificationReport {
        verify(try DeviceResponse(encoded: encoded), at: time)
    }

    /// Verifies a decoded DeviceResponse.
    public func verify(_ response: DeviceResponse, at time: Date) -> VerificationReport {
        let documents = (response.documents ?? []).enumerated().map { index, document in
            var verification = DocumentVerification(
                document: document, index: index, responseStatus: response.status, time: time, sessionTranscript: sessionTranscript,
                readerKey: readerKey, validator: validator, certificates: certificates)
            policy.evaluate(&verification)
            return verification.finish()
        }
        let errors = (response.documentErrors ?? []).flatMap { documentError in
            documentError.errors.map { VerificationReport.DocumentErrorEntry(docType: $0.key, code: $0.value.rawValue) }
        }
        var report = VerificationReport(
            version: response.version, status: response.status.rawValue, time: time,
            documents: documents, documentErrors: errors)
        report.madeByVerifier = true
        return report
    }
}
