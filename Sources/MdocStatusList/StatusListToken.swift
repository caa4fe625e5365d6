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
    public static let cwtTag: UInt64 = 61

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
        guard bytes.count <= StatusListLimits.tokenBytes else {
            throw StatusListError(.tokenTooLarge, "the token has \(bytes.count) bytes, more than the limit of \(StatusListLimits.tokenBytes)")
        }
        let limits = CBORLimits(maximumDepth: CBORLimits.defaultMaximumDepth, maximumItemCount: CBORLimits.defaultMaximumItemCount,
                                maximumInputSize: StatusListLimits.tokenBytes)
        let item = try Self.decode(CBORBytes(bytes), limits: limits, what: "the token")
        let message = try Self.message(item)
        let headers: COSEHeaders
        let payload: CBORBytes?
        switch message {
        case .sign1(let sign1): (headers, payload) = (sign1.headers, sign1.payload)
        case .mac0(let mac0): (headers, payload) = (mac0.headers, mac0.payload)
        }
        try Self.checkType(headers)
        guard let payload else {
            throw StatusListError(.malformedToken, "the token's payload is detached (null); the claims must be attached")
        }
        let claims = try Self.decode(payload, limits: limits, what: "the payload")
        self.claims = try StatusListTokenClaims(cbor: claims, at: .root)
        self.bytes = bytes
        self.message = message
    }

    /// Both header buckets of the message.
    public var headers: COSEHeaders {
        switch message {
        case .sign1(let sign1): return sign1.headers
        case .mac0(let mac0): return mac0.headers
        }
    }

    /// The status list of the `status_list` claim.
    public var statusList: StatusList { claims.statusList }

    /// The `x5chain` certificates (DER, leaf first; RFC 9360), empty when the token has none.
    public var x5chain: [[UInt8]] { headers.x5chain }

    /// The `kid` header, when present.
    public var keyIdentifier: [UInt8]? { headers.keyIdentifier }

    /// The tagged COSE_Sign1 or COSE_Mac0 that `item` is (section 5.2).
    private static func message(_ item: CBOR) throws(StatusListError) -> Message {
        do {
            switch item {
            case .tagged(COSESign1.tag, _):
                return .sign1(try COSESign1(cbor: item, at: .root))
            case .tagged(COSEMac0.tag, _):
                return .mac0(try COSEMac0(cbor: item, at: .root))
            default:
                break
            }
        } catch {
            throw StatusListError(.malformedToken, "the token is not a COSE message: \(error)")
        }
        switch item {
        case .tagged(cwtTag, _):
            throw StatusListError(.cwtTag, "the token is wrapped in the CWT tag 61, which section 5.2 forbids")
        case .tagged(let tag, _):
            throw StatusListError(.malformedToken, "the token has tag \(tag), not 18 (COSE_Sign1) or 17 (COSE_Mac0)")
        case .array:
            throw StatusListError(.untagged, "the token is an untagged COSE message; section 5.2 requires tag 18 or 17")
        default:
            throw StatusListError(.malformedToken, "the token is \(item.kindName), not a tagged COSE_Sign1 or COSE_Mac0")
        }
    }

    /// Checks the protected `typ` (section 5.2; RFC 9596 section 2).
    private static func checkType(_ headers: COSEHeaders) throws(StatusListError) {
        guard let type = headers.protected[int: COSEHeaders.Label.type] else {
            if headers.unprotected[int: COSEHeaders.Label.type] != nil {
                throw StatusListError(.wrongType, "typ (16) is in the unprotected header; section 5.2 requires it protected")
            }
            throw StatusListError(.wrongType, "the protected header has no typ (16); section 5.2 requires \(mediaType)")
        }
        guard let text = type.textValue else {
            throw StatusListError(.wrongType, "typ (16) is \(type.kindName), not the text \(mediaType) (no CoAP Content-Format is assigned yet)")
        }
        guard text == mediaType else {
            throw StatusListError(.wrongType, "typ (16) is \"\(UntrustedText.escaped(text))\", not \(mediaType)")
        }
    }

    private static func decode(_ bytes: CBORBytes, limits: CBORLimits, what: String) throws(StatusListError) -> CBOR {
        do {
            return try CBORDecoder(limits: limits).decode(bytes)
        } catch {
            throw StatusListError(.malformedToken, "\(what) is not well-formed CBOR: \(error)")
        }
    }
}
