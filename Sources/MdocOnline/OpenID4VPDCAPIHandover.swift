import MdocCBOR
import MdocCrypto

/// `OpenID4VPDCAPIHandover` of OpenID for Verifiable Presentations 1.0, Appendix B.2.6.2: the
/// Handover of a request invoked through the W3C Digital Credentials API (response modes
/// `dc_api` and `dc_api.jwt`).
///
/// ```
/// OpenID4VPDCAPIHandover = ["OpenID4VPDCAPIHandover", OpenID4VPDCAPIHandoverInfoHash]
/// OpenID4VPDCAPIHandoverInfoHash = SHA-256(OpenID4VPDCAPIHandoverInfoBytes)
/// OpenID4VPDCAPIHandoverInfo = [origin, nonce, jwkThumbprint / null]
/// ```
/// Not the `[origin, clientId, nonce]` Handover of earlier drafts (draft 24 and before).
public struct OpenID4VPDCAPIHandover: OnlineHandover, Hashable {
    /// The first element of the Handover.
    public static let identifier = "OpenID4VPDCAPIHandover"

    /// The request's origin as the platform asserts it (`https://verifier.example`), without
    /// the `origin:` prefix of the effective client identifier.
    public let origin: String
    /// The `nonce` request parameter.
    public let nonce: String
    /// The JWK SHA-256 Thumbprint of the verifier's key the response is encrypted to
    /// (`dc_api.jwt`), or `nil` for `dc_api`.
    public let jwkThumbprint: JWKThumbprint?

    /// The Handover of a request from `origin` with `nonce`.
    public init(origin: String, nonce: String, jwkThumbprint: JWKThumbprint?) {
        self.origin = origin
        self.nonce = nonce
        self.jwkThumbprint = jwkThumbprint
    }

    /// `OpenID4VPDCAPIHandoverInfo = [origin, nonce, jwkThumbprint]`.
    public var info: CBOR {
        .array([.textString(origin), .textString(nonce), jwkThumbprint.map { .byteString($0.bytes) } ?? .null])
    }

    /// `OpenID4VPDCAPIHandoverInfoHash`: SHA-256 of the encoded ``info``.
    public var infoHash: [UInt8] {
        DigestAlgorithm.sha256.hash(info.encoded())
    }

    public var cbor: CBOR {
        .array([.textString(Self.identifier), .byteString(infoHash)])
    }
}
