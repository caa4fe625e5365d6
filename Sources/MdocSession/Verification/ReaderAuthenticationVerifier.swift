import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies the reader authentication of a DocRequest (ISO/IEC 18013-5 9.1.4): the readerAuth
/// COSE_Sign1, whose detached payload is ReaderAuthenticationBytes built from this session's
/// transcript and the exact ItemsRequestBytes received, signed by a reader certificate that
/// chains to a trusted reader root under the Annex B reader-authentication profile.
public struct ReaderAuthenticationVerifier: Sendable {
    private let validator: CertificateChainValidator
    private let certificates = CertificateCache()

    /// The outcome for one DocRequest.
    public struct Report: Sendable {
        /// The checks made, in order (reader certificate, then reader signature).
        public var checks: [VerificationCheck]
        /// The reader certificate's subject, when the x5chain held one.
        public var readerCertificate: String?
        /// The trust anchor the chain ended at, when it validated.
        public var trustAnchor: String?
        /// The certificates of the readerAuth `x5chain`, leaf first, as far as they parse.
        public var certificateChain: [Certificate] = []
        /// Every check of the chain's validation under the Annex B reader authentication
        /// profile (the path built, each check passed and failed), when the chain parsed.
        public var chainValidation: CertificateValidationResult?

        /// `true` when the request carried reader authentication and every check passed.
        public var isAuthenticated: Bool {
            !checks.isEmpty && checks.allSatisfy(\.passed)
        }

        /// `true` when the request carried no readerAuth (an anonymous reader).
        public var isAnonymous: Bool {
            !checks.isEmpty && checks.allSatisfy { if case .skipped = $0.outcome { return true } else { return false } }
        }

        /// The identity the holder is shown for this DocRequest.
        public var identity: ReaderIdentity { ReaderIdentity(self) }
    }

    /// A verifier trusting `trustAnchors` (reader root certificates).
    public init(trustAnchors: [Certificate]) {
        self.validator = CertificateChainValidator(trustAnchors: trustAnchors)
    }

    /// Verifies `docRequest` for the session bound to `sessionTranscript` at `time`.
    public func verify(_ docRequest: DocRequest, sessionTranscript: SessionTranscriptBinding, at time: Date) -> Report {
        guard let readerAuth = docRequest.readerAuth else {
            return Report(
                checks: [VerificationCheck(.readerSignature, subject: .readerAuth, outcome: .skipped("the request carries no readerAuth"))],
                readerCertificate: nil, trustAnchor: nil)
        }
        let chain = X5ChainVerification(
            readerAuth, name: .readerAuth, kind: .readerCertificate, profile: .readerAuthentication,
            validator: validator, certificates: certificates, time: time)
        var report = Report(
            checks: chain.checks, readerCertificate: chain.leaf?.subject, trustAnchor: chain.trustAnchor?.subject,
            certificateChain: chain.chain, chainValidation: chain.validation)
        guard let leaf = chain.leaf else {
            return report
        }
        let payload = sessionTranscript.readerAuthenticationBytes(itemsRequestBytes: docRequest.itemsRequest)
        let algorithm = readerAuth.algorithm.map { "\($0)" } ?? "no algorithm"
        let valid = readerAuth.isValidSignature(publicKey: leaf.publicKey, detachedPayload: payload)
        report.checks.append(VerificationCheck(
            .readerSignature, subject: .readerAuth,
            outcome: valid
                ? .passed
                : .failed(.invalidSignature, "the readerAuth signature (\(algorithm)) does not verify over this session's ReaderAuthenticationBytes with the key of \"\(leaf.subject)\""),
            detail: "\(algorithm) by \"\(leaf.subject)\""))
        return report
    }
}
