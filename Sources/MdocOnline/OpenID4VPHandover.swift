import MdocCBOR
import MdocCrypto

/// `OpenID4VPHandover` of OpenID for Verifiable Presentations 1.0, Appendix B.2.6.1: the
/// Handover of a request invoked by redirects (response modes `direct_post`, `direct_post.jwt`,
/// `fragment`...).
///
/// ```
/// OpenID4VPHandover = ["OpenID4VPHandover", OpenID4VPHandoverInfoHash]
/// OpenID4VPHandoverInfoHash = SHA-256(OpenID4VPHandoverInfoBytes)
/// OpenID4VPHandoverInfo = [clientId, nonce, jwkThumbprint / null, responseUri]
/// ```
/// Not the Handover of OpenID4VP drafts before 1.0, nor the ``OID4VPHandover`` of ISO/IEC TS
/// 18013-7:2024 Annex B.
public struct OpenID4VPHandover: OnlineHandover, Hashable {
    /// The first element of the Handover.
    public static let identifier = "OpenID4VPHandover"

    /// `client_id`, with its Client Identifier Prefix (`x509_san_dns:verifier.example`).
    public let clientID: String
    /// The `nonce` request parameter.
    public let nonce: String
    /// The JWK SHA-256 Thumbprint of the verifier's key the response is encrypted to
    /// (`direct_post.jwt`), or `nil` for a response that is not encrypted.
    public let jwkThumbprint: JWKThumbprint?
    /// `response_uri`, or `redirect_uri` when the response mode uses that.
    public let responseURI: String

    /// The Handover of a request with these parameters, taken from the signed Request Object
    /// when the request is signed.
    public init(clientID: String, nonce: String, jwkThumbprint: JWKThumbprint?, responseURI: String) {
        self.clientID = clientID
        self.nonce = nonce
        self.jwkThumbprint = jwkThumbprint
        self.responseURI = responseURI
    }

    /// `OpenID4VPHandoverInfo = [clientId, nonce, jwkThumbprint, responseUri]`.
    public var info: CBOR {
        .array([.textString(clientID), .textString(nonce), jwkThumbprint.map { .byteString($0.bytes) } ?? .null, .textString(responseURI)])
    }

    /// `OpenID4VPHandoverInfoHash`: SHA-256 of the encoded ``info``.
    public var infoHash: [UInt8] {
        DigestAlgorithm.sha256.hash(info.encoded())
    }

    public var cbor: CBOR {
        .array([.textString(Self.identifier), .byteString(infoHash)])
    }
}
