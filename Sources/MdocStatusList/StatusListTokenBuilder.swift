import MdocCBOR
import MdocCOSE
import MdocCrypto

/// Makes a Status List Token in CWT form (draft-ietf-oauth-status-list section 5.2), the
/// issuer's side: a tagged COSE_Sign1 signed with ECDSA, or a tagged COSE_Mac0 with
/// HMAC 256/256, whose protected header holds `alg` and `typ`, the unprotected one `kid` and
/// `x5chain` when given. The token made is decoded again before it is returned, so what a
/// reader of this toolkit would reject is never made.
public struct StatusListTokenBuilder: Sendable {
    /// The claims to sign.
    public var claims: StatusListTokenClaims
    /// The `kid` header (4), when set.
    public var keyIdentifier: [UInt8]?
    /// The `x5chain` header (33): DER certificates, leaf first; none when empty.
    public var x5chain: [[UInt8]]

    /// A builder of a token with `claims`.
    public init(claims: StatusListTokenClaims, keyIdentifier: [UInt8]? = nil, x5chain: [[UInt8]] = []) {
        self.claims = claims
        self.keyIdentifier = keyIdentifier
        self.x5chain = x5chain
    }

    /// The token signed with `key`: ES256, ES384 or ES512 after the key's curve
    /// (`COSEAlgorithm`).
    ///
    /// Throws `signingFailed` for a key that signs no ECDSA algorithm or
    /// when signing fails, and the errors of decoding the result.
    public func sign(with key: PrivateKey) throws(StatusListError) -> StatusListToken {
        try StatusListToken(bytes: StatusTokenEnvelope.sign(
            claims.cbor, mediaType: StatusListToken.mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain, with: key))
    }

    /// The token MACed with `key`, HMAC 256/256.
    public func authenticate(with key: SymmetricKey) throws(StatusListError) -> StatusListToken {
        try StatusListToken(bytes: StatusTokenEnvelope.authenticate(
            claims.cbor, mediaType: StatusListToken.mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain, with: key))
    }
}
