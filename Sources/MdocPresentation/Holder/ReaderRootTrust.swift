import MdocCrypto
import MdocModel
import MdocSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reader authentication against the holder's reader roots (ISO/IEC 18013-5 9.1.4): the readerAuth
/// COSE_Sign1 over ReaderAuthenticationBytes of this session, signed by a reader certificate that
/// chains to one of the roots under the Annex B reader-authentication profile
/// (`ReaderAuthenticationVerifier`), at the time `now` gives.
///
/// It never refuses a request by itself: an untrusted or anonymous reader is shown as such, and
/// whether it may have anything is the holder's decision.
public struct ReaderRootTrust: ReaderTrustDelegate {
    private let verifier: ReaderAuthenticationVerifier
    private let now: @Sendable () -> Date

    /// Trust in the readers whose certificates chain to `trustAnchors`; with none, every signed
    /// request is untrusted.
    public init(trustAnchors: [Certificate], now: @escaping @Sendable () -> Date = { Date() }) {
        self.verifier = ReaderAuthenticationVerifier(trustAnchors: trustAnchors)
        self.now = now
    }

    /// The identity `docRequest`'s reader authentication establishes.
    public func identity(of docRequest: DocRequest, in request: ReceivedRequest) -> ReaderIdentity {
        verifier.verify(docRequest, sessionTranscript: request.sessionTranscript, at: now()).identity
    }
}
