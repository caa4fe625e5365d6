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
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: key.curve), let digest = algorithm.digest else {
            throw StatusListError(.signingFailed, "a \(key.curve) key signs with no ECDSA algorithm")
        }
        let headers = try headers(algorithm)
        let unsigned = COSESign1(headers: headers, payload: CBORBytes(claims.cbor.encoded()), signature: [])
        let signature: [UInt8]
        do {
            signature = try key.signature(for: unsigned.toBeSigned(), digest: digest)
        } catch {
            throw StatusListError(.signingFailed, "signing the token failed: \(error)")
        }
        let signed = COSESign1(headers: headers, payload: unsigned.payload, signature: signature)
        return try StatusListToken(bytes: CBOR.tagged(COSESign1.tag, signed.cbor).encoded())
    }

    /// The token MACed with `key`, HMAC 256/256.
    public func authenticate(with key: SymmetricKey) throws(StatusListError) -> StatusListToken {
        let headers = try headers(.hmac256)
        let unauthenticated = COSEMac0(headers: headers, payload: CBORBytes(claims.cbor.encoded()), tag: [])
        let mac = COSEMac0(headers: headers, payload: unauthenticated.payload,
                           tag: HMACSHA256.authenticationCode(for: unauthenticated.toBeMACed(), key: key))
        return try StatusListToken(bytes: CBOR.tagged(COSEMac0.tag, mac.cbor).encoded())
    }

    /// `{1: alg, 16: typ}` protected, `{4: kid, 33: x5chain}` unprotected as set.
    private func headers(_ algorithm: COSEAlgorithm) throws(StatusListError) -> COSEHeaders {
        var protected = CBORMap()
        protected.append(CBOR(COSEHeaders.Label.algorithm), CBOR(algorithm.rawValue))
        protected.append(CBOR(COSEHeaders.Label.type), .textString(StatusListToken.mediaType))
        var unprotected = CBORMap()
        if let keyIdentifier {
            unprotected.append(CBOR(COSEHeaders.Label.keyIdentifier), .byteString(keyIdentifier))
        }
        if !x5chain.isEmpty {
            unprotected.append(CBOR(COSEHeaders.Label.x5chain), COSEHeaders.x5chainValue(x5chain))
        }
        do {
            return try COSEHeaders(protectedBytes: CBOR.map(protected).encoded(), unprotected: unprotected)
        } catch {
            throw StatusListError(.signingFailed, "the token's headers are invalid: \(error)")
        }
    }
}
