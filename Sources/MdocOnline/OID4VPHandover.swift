import MdocCBOR
import MdocCrypto

/// `OID4VPHandover` of ISO/IEC TS 18013-7:2024 Annex B (B.4.4), the Handover of presentation
/// over the OpenID4VP drafts that edition profiles; OpenID4VP 1.0 replaced it with
/// ``OpenID4VPHandover``.
///
/// ```
/// OID4VPHandover = [clientIdHash, responseUriHash, nonce]
/// clientIdHash    = SHA-256(cbor([client_id, mdocGeneratedNonce]))
/// responseUriHash = SHA-256(cbor([response_uri, mdocGeneratedNonce]))
/// ```
/// `nonce` is the request's; `mdocGeneratedNonce` is the wallet's, sent to the verifier as the
/// JWE `apu` header of the encrypted response.
public struct OID4VPHandover: OnlineHandover, Hashable {
    /// `clientIdHash`: SHA-256 of the encoded `[client_id, mdocGeneratedNonce]`.
    public let clientIDHash: [UInt8]
    /// `responseUriHash`: SHA-256 of the encoded `[response_uri, mdocGeneratedNonce]`.
    public let responseURIHash: [UInt8]
    /// The `nonce` request parameter.
    public let nonce: String

    /// The Handover of a request with `client_id`, `response_uri` and `nonce`, answered with the
    /// wallet's `mdocGeneratedNonce`.
    public init(clientID: String, responseURI: String, nonce: String, mdocGeneratedNonce: String) {
        clientIDHash = DigestAlgorithm.sha256.hash(CBOR.array([.textString(clientID), .textString(mdocGeneratedNonce)]).encoded())
        responseURIHash = DigestAlgorithm.sha256.hash(
            CBOR.array([.textString(responseURI), .textString(mdocGeneratedNonce)]).encoded())
        self.nonce = nonce
    }

    public var cbor: CBOR {
        .array([.byteString(clientIDHash), .byteString(responseURIHash), .textString(nonce)])
    }
}
