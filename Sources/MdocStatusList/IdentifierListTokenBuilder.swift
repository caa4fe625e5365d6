import MdocCBOR
import MdocCrypto

/// Makes an identifier list token (ISO/IEC 18013-5 second edition 12.3.6.3), the issuer's side,
/// in the envelope ``StatusListTokenBuilder`` makes: a tagged COSE_Sign1 signed with ECDSA, or a
/// tagged COSE_Mac0 with HMAC 256/256; `alg` and `typ` protected, `kid` and `x5chain`
/// unprotected when given. The token made is decoded again before it is returned.
public struct IdentifierListTokenBuilder: Sendable {
    /// The claims to sign.
    public var claims: IdentifierListTokenClaims
    /// The `kid` header (4), when set.
    public var keyIdentifier: [UInt8]?
    /// The `x5chain` header (33): DER certificates, leaf first; none when empty.
    public var x5chain: [[UInt8]]

    /// A builder of a token with `claims`.
    public init(claims: IdentifierListTokenClaims, keyIdentifier: [UInt8]? = nil, x5chain: [[UInt8]] = []) {
        self.claims = claims
        self.keyIdentifier = keyIdentifier
        self.x5chain = x5chain
    }

    /// The token signed with `key`: ES256, ES384 or ES512 after the key's curve.
    public func sign(with key: PrivateKey) throws(StatusListError) -> IdentifierListToken {
        try IdentifierListToken(bytes: StatusTokenEnvelope.sign(
            claims.cbor, mediaType: IdentifierListToken.mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain, with: key))
    }

    /// The token MACed with `key`, HMAC 256/256.
    public func authenticate(with key: SymmetricKey) throws(StatusListError) -> IdentifierListToken {
        try IdentifierListToken(bytes: StatusTokenEnvelope.authenticate(
            claims.cbor, mediaType: IdentifierListToken.mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain, with: key))
    }
}
