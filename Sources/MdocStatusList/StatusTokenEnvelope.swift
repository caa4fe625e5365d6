import MdocCBOR
import MdocCOSE
import MdocCrypto

/// The CWT envelope a Status List Token (draft-ietf-oauth-status-list section 5.2) and an
/// identifier list token (ISO/IEC 18013-5 second edition 12.3.6.3, which takes the same form)
/// share: a tagged COSE_Sign1 (18) or COSE_Mac0 (17), never untagged nor inside the CWT tag 61,
/// with the token's media type as protected `typ` (16) and the claims attached as its payload.
enum StatusTokenEnvelope {
    /// The CWT tag (RFC 8392 section 6), which section 5.2 forbids on the token.
    static let cwtTag: UInt64 = 61

    /// The COSE message and the claims item of `bytes`, a token whose `typ` must be `mediaType`;
    /// at most ``StatusListLimits/tokenBytes``.
    static func open(_ bytes: [UInt8], mediaType: String) throws(StatusListError) -> (StatusListToken.Message, CBOR) {
        guard bytes.count <= StatusListLimits.tokenBytes else {
            throw StatusListError(.tokenTooLarge, "the token has \(bytes.count) bytes, more than the limit of \(StatusListLimits.tokenBytes)")
        }
        let limits = CBORLimits(maximumDepth: CBORLimits.defaultMaximumDepth, maximumItemCount: CBORLimits.defaultMaximumItemCount,
                                maximumInputSize: StatusListLimits.tokenBytes)
        let item = try decode(CBORBytes(bytes), limits: limits, what: "the token")
        let message = try message(item)
        let headers: COSEHeaders
        let payload: CBORBytes?
        switch message {
        case .sign1(let sign1): (headers, payload) = (sign1.headers, sign1.payload)
        case .mac0(let mac0): (headers, payload) = (mac0.headers, mac0.payload)
        }
        try checkType(headers, mediaType: mediaType)
        guard let payload else {
            throw StatusListError(.malformedToken, "the token's payload is detached (null); the claims must be attached")
        }
        return (message, try decode(payload, limits: limits, what: "the payload"))
    }

    /// Checks the signature or MAC of `message` over the received bytes with `key` (RFC 9052
    /// sections 4.4 and 6.3), and says what verified.
    static func authenticate(_ message: StatusListToken.Message, with key: StatusListToken.Key) throws(StatusListError) -> String {
        switch (message, key) {
        case (.sign1(let sign1), .publicKey(let publicKey)):
            guard let algorithm = sign1.algorithm, algorithm.isSignatureAlgorithm else {
                throw StatusListError(.signatureInvalid, "the COSE_Sign1 has no protected signature alg this toolkit supports")
            }
            guard algorithm.isSuitable(for: publicKey.curve) else {
                throw StatusListError(.signatureInvalid, "the token is signed with \(algorithm), which a \(publicKey.curve) key does not make")
            }
            guard sign1.isValidSignature(publicKey: publicKey) else {
                throw StatusListError(.signatureInvalid, "the \(algorithm) signature does not verify with the key given")
            }
            return "the \(algorithm) signature verifies with the key given"
        case (.mac0(let mac0), .symmetric(let symmetricKey)):
            guard mac0.algorithm == .hmac256 else {
                throw StatusListError(.signatureInvalid, "the COSE_Mac0's protected alg is not HMAC 256/256, the one MAC this toolkit supports")
            }
            guard mac0.isValidTag(key: symmetricKey) else {
                throw StatusListError(.signatureInvalid, "the HMAC 256/256 tag does not verify with the key given")
            }
            return "the HMAC 256/256 tag verifies with the key given"
        case (.sign1, .symmetric):
            throw StatusListError(.signatureInvalid, "the token is a COSE_Sign1, which a symmetric key cannot verify")
        case (.mac0, .publicKey):
            throw StatusListError(.signatureInvalid, "the token is a COSE_Mac0, which a public key cannot verify")
        }
    }

    /// The token of `claims` with `typ` `mediaType`, signed with `key`: ES256, ES384 or ES512
    /// after the key's curve; `kid` and `x5chain` unprotected when given.
    static func sign(
        _ claims: CBOR, mediaType: String, keyIdentifier: [UInt8]?, x5chain: [[UInt8]], with key: PrivateKey
    ) throws(StatusListError) -> [UInt8] {
        guard let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: key.curve), let digest = algorithm.digest else {
            throw StatusListError(.signingFailed, "a \(key.curve) key signs with no ECDSA algorithm")
        }
        let headers = try headers(algorithm, mediaType: mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain)
        let unsigned = COSESign1(headers: headers, payload: CBORBytes(claims.encoded()), signature: [])
        let signature: [UInt8]
        do {
            signature = try key.signature(for: unsigned.toBeSigned(), digest: digest)
        } catch {
            throw StatusListError(.signingFailed, "signing the token failed: \(error)")
        }
        let signed = COSESign1(headers: headers, payload: unsigned.payload, signature: signature)
        return CBOR.tagged(COSESign1.tag, signed.cbor).encoded()
    }

    /// The token of `claims` with `typ` `mediaType`, MACed with `key`, HMAC 256/256.
    static func authenticate(
        _ claims: CBOR, mediaType: String, keyIdentifier: [UInt8]?, x5chain: [[UInt8]], with key: SymmetricKey
    ) throws(StatusListError) -> [UInt8] {
        let headers = try headers(.hmac256, mediaType: mediaType, keyIdentifier: keyIdentifier, x5chain: x5chain)
        let unauthenticated = COSEMac0(headers: headers, payload: CBORBytes(claims.encoded()), tag: [])
        let mac = COSEMac0(headers: headers, payload: unauthenticated.payload,
                           tag: HMACSHA256.authenticationCode(for: unauthenticated.toBeMACed(), key: key))
        return CBOR.tagged(COSEMac0.tag, mac.cbor).encoded()
    }

    /// `{1: alg, 16: typ}` protected, `{4: kid, 33: x5chain}` unprotected as set.
    private static func headers(
        _ algorithm: COSEAlgorithm, mediaType: String, keyIdentifier: [UInt8]?, x5chain: [[UInt8]]
    ) throws(StatusListError) -> COSEHeaders {
        var protected = CBORMap()
        protected.append(CBOR(COSEHeaders.Label.algorithm), CBOR(algorithm.rawValue))
        protected.append(CBOR(COSEHeaders.Label.type), .textString(mediaType))
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

    /// The tagged COSE_Sign1 or COSE_Mac0 that `item` is (section 5.2).
    private static func message(_ item: CBOR) throws(StatusListError) -> StatusListToken.Message {
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
    private static func checkType(_ headers: COSEHeaders, mediaType: String) throws(StatusListError) {
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

extension StatusListToken.Message {
    /// Both header buckets of the message.
    var headers: COSEHeaders {
        switch self {
        case .sign1(let sign1): return sign1.headers
        case .mac0(let mac0): return mac0.headers
        }
    }
}
