import MdocCBOR
import MdocCrypto
import MdocModel

/// Builds the DeviceRequest of a reader (ISO/IEC 18013-5 8.3.2.1.2.1) from ``DocRequestSpec``s,
/// each DocRequest signed over the SessionTranscript it is sent in when the reader authenticates
/// (9.1.4): the transcript of a proximity session, or the `[null, null, Handover]` of an online
/// presentation (ISO/IEC TS 18013-7), where ReaderAuthentication is built the same way.
public struct DeviceRequestBuilder: Sendable {
    private let signer: ReaderSigner?

    /// A builder that signs each DocRequest with `readerAuthentication` (the reader's key and its
    /// certificate chain, reader certificate first), or signs nothing when it is `nil`.
    ///
    /// Throws `.messageConstructionFailed` when the chain is empty, the key is not the key of its
    /// first certificate, or the key's curve has no signature algorithm.
    public init(readerAuthentication: (key: PrivateKey, chain: [Certificate])? = nil) throws(SessionError) {
        signer = try readerAuthentication.map { (auth) throws(SessionError) in try ReaderSigner(key: auth.key, chain: auth.chain) }
    }

    /// The encoded DeviceRequest of `specs`, each DocRequest signed over `sessionTranscript`
    /// when the builder has a signer. Throws `.messageConstructionFailed` for an empty request,
    /// a DocRequest without a name space or element, or a signature that fails.
    public func deviceRequest(_ specs: [DocRequestSpec], sessionTranscript: SessionTranscriptBinding) throws(SessionError) -> [UInt8] {
        try Self.check(specs)
        return try deviceRequest(itemsRequests: specs.map(\.itemsRequest), sessionTranscript: sessionTranscript)
    }

    /// The encoded DeviceRequest of one DocRequest per ItemsRequest of `itemsRequests`, as
    /// given, each signed over `sessionTranscript` and the ItemsRequestBytes it is sent with
    /// when the builder has a signer (9.1.4).
    package func deviceRequest(itemsRequests: [ItemsRequest], sessionTranscript: SessionTranscriptBinding) throws(SessionError) -> [UInt8] {
        var docRequests: [DocRequest] = []
        for request in itemsRequests {
            let itemsRequest = EmbeddedCBOR(request)
            let readerAuth = try signer.map { (signer) throws(SessionError) in
                try signer.readerAuth(for: itemsRequest, transcript: sessionTranscript)
            }
            docRequests.append(DocRequest(itemsRequest: itemsRequest, readerAuth: readerAuth))
        }
        return DeviceRequest(docRequests: docRequests).encoded()
    }

    /// Throws when `request` cannot become a DeviceRequest: no DocRequest, or one whose
    /// ItemsRequest would break the CDDL (``DocRequestSpec``).
    package static func check(_ request: [DocRequestSpec]) throws(SessionError) {
        guard !request.isEmpty else {
            throw SessionError(.messageConstructionFailed, "a DeviceRequest needs at least one DocRequest")
        }
        if let problem = request.lazy.compactMap(\.problem).first {
            throw SessionError(.messageConstructionFailed, problem)
        }
    }
}
