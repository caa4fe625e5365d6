import MdocCBOR
import MdocCrypto
import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies the reader authentication of a stored DeviceRequest offline, as a holder would when
/// it arrived (ISO/IEC 18013-5 9.1.4): for each DocRequest, the readerAuth certificate chain to
/// the trusted reader roots under the Annex B reader authentication profile and the signature
/// over ReaderAuthenticationBytes built from the given SessionTranscript and the exact
/// ItemsRequestBytes received.
///
/// The checks are those of ``ReaderAuthenticationVerifier``, which ``HolderSession`` uses live,
/// so a tester sees what a holder of this toolkit decides on.
///
/// ```swift
/// let verifier = DeviceRequestVerifier(trustAnchors: [readerRoot])
/// let report = try verifier.verify(requestBytes, sessionTranscript: binding, at: Date())
/// print(report.outcome)   // .authenticated when every DocRequest's reader authentication holds
/// ```
public struct DeviceRequestVerifier: Sendable {
    private let verifier: ReaderAuthenticationVerifier

    /// A verifier trusting `trustAnchors` (reader root certificates).
    public init(trustAnchors: [Certificate]) {
        verifier = ReaderAuthenticationVerifier(trustAnchors: trustAnchors)
    }

    /// Decodes `bytes` as a DeviceRequest and verifies it; throws `CBORError` when they are not
    /// one.
    public func verify(_ bytes: [UInt8], sessionTranscript: SessionTranscriptBinding, at time: Date) throws(CBORError) -> RequestVerificationReport {
        verify(try DeviceRequest(encoded: bytes), sessionTranscript: sessionTranscript, at: time)
    }

    /// Verifies the reader authentication of every DocRequest of `request` for the session bound
    /// to `sessionTranscript`, at `time`.
    public func verify(_ request: DeviceRequest, sessionTranscript: SessionTranscriptBinding, at time: Date) -> RequestVerificationReport {
        RequestVerificationReport(
            version: request.version, time: time,
            docRequests: request.docRequests.enumerated().map { index, docRequest in
                RequestVerificationReport.DocRequestReport(
                    index: index, itemsRequest: docRequest.itemsRequest.value,
                    readerAuthentication: verifier.verify(docRequest, sessionTranscript: sessionTranscript, at: time))
            })
    }
}
