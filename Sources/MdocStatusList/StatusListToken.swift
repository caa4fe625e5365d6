import MdocCBOR
import MdocCOSE

/// A Status List Token in CWT form (draft-ietf-oauth-status-list section 5.2), decoded from the
/// bytes an HTTP response carried (section 8.2), which it keeps as received.
///
/// Decoding checks the form: at most ``StatusListLimits/tokenBytes``; a tagged COSE_Sign1 (18)
/// or COSE_Mac0 (17), never untagged nor inside the CWT tag 61; the protected `typ` (16)
/// `application/statuslist+cwt` (an integer CoAP Content-Format is rejected: none is assigned
/// yet); an attached payload holding the claims (``StatusListTokenClaims``), whose status list
/// inflates within ``StatusListLimits/decompressedBytes``. Whether the token is authentic,
/// current and the one asked for is ``validate(uri:at:key:)``'s business (section 8.3). The
/// signature or MAC is always checked over the received protected header and payload bytes.
public struct StatusListToken: Sendable {
    /// The media type of a Status List Token in CWT form, its `typ` header (section 5.2).
    public static let mediaType = "application/statuslist+cwt"
    /// The CWT tag (RFC 8392 section 6), which section 5.2 forbids on a Status List Token.
    public static let cwtTag: UInt64 = StatusTokenEnvelope.cwtTag

    /// The COSE message a token is.
    public enum Message: Sendable, Hashable {
        /// Signed: COSE_Sign1, tag 18.
        case sign1(COSESign1)
        /// MACed: COSE_Mac0, tag 17.
        case mac0(COSEMac0)
    }

    /// The token exactly as received.
    public let bytes: [UInt8]
    /// The COSE message.
    public let message: Message
    /// The claims, decoded from the received payload.
    public let claims: StatusListTokenClaims

    /// Decodes a token from `bytes` (see the type's description for what is checked).
    public init(bytes: [UInt8]) throws(StatusListError) {
        let (message, claims) = try StatusTokenEnvelope.open(bytes, mediaType: Self.mediaType)
        self.claims = try StatusListTokenClaims(cbor: claims, at: .root)
        self.bytes = bytes
        self.message = message
    }

    /// Both header buckets of the message.
    public var headers: COSEHeaders { message.headers }

    /// The status list of the `status_list` claim.
    public var statusList: StatusList { claims.statusList }

    /// The `x5chain` certificates (DER, leaf first; RFC 9360), empty when the token has none.
    public var x5chain: [[UInt8]] { headers.x5chain }

    /// The `kid` header, when present.
    public var keyIdentifier: [UInt8]? { headers.keyIdentifier }
}
