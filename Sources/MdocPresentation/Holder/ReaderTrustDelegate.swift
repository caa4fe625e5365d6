import MdocModel
import MdocSession

/// Who is asking: the holder's policy for reader authentication (ISO/IEC 18013-5 9.1.4), which
/// turns each DocRequest's readerAuth into the `ReaderIdentity` the holder is shown.
///
/// ``ReaderRootTrust`` is the policy of the standard: a signature by a reader certificate that
/// chains to one of the holder's reader roots. An application may add its own rules (a list of
/// readers it knows, a revocation check) or replace it.
public protocol ReaderTrustDelegate: Sendable {
    /// The identity of the reader that signed `docRequest`, one of the DocRequests of `request`.
    func identity(of docRequest: DocRequest, in request: ReceivedRequest) async -> ReaderIdentity
}
