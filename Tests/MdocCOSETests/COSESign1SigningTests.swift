import MdocCBOR
import MdocCOSE
import MdocCrypto
import Testing

/// Every signature algorithm with every curve ISO/IEC 18013-5 pairs it with.
let signingPairs: [(COSEAlgorithm, Curve)] = COSEAlgorithm.allCases.flatMap { algorithm in
    algorithm.curves.map { (algorithm, $0) }
}

@Suite("COSE_Sign1 signing and verification")
struct COSESign1SigningTests {
    let payload: [UInt8] = Array("ISO/IEC 18013-5 payload".utf8)

    @Test("sign and verify, attached", arguments: signingPairs)
    func attached(algorithm: COSEAlgorithm, curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let sign1 = try COSESign1.sign(payload: payload, detached: false, algorithm: algorithm, key: key)
        #expect(sign1.algorithm == algorithm)
        #expect(sign1.protectedHeaderBytes == CBOR.map(CBORMap([.init(key: 1, value: CBOR(algorithm.rawValue))])).encoded())
        #expect(sign1.payload == CBORBytes(payload))
        #expect(sign1.isValidSignature(publicKey: key.publicKey))
        let decoded = try COSESign1(encoded: sign1.encoded())
        #expect(decoded == sign1)
        #expect(decoded.isValidSignature(publicKey: key.publicKey))
        var tampered = decoded
        tampered.payload = CBORBytes(flippingBit(payload, at: 0))
        #expect(!tampered.isValidSignature(publicKey: key.publicKey))
        #expect(!decoded.isValidSignature(publicKey: try PrivateKey(generating: curve).publicKey))
    }

    @Test("sign and verify, detached with external AAD", arguments: signingPairs)
    func detached(algorithm: COSEAlgorithm, curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let aad: [UInt8] = [1, 2, 3]
        let sign1 = try COSESign1.sign(payload: payload, detached: true, algorithm: algorithm, key: key, externalAAD: aad)
        #expect(sign1.payload == nil)
        #expect(sign1.cbor.arrayValue?[2] == .null)
        #expect(sign1.isValidSignature(publicKey: key.publicKey, detachedPayload: payload, externalAAD: aad))
        #expect(!sign1.isValidSignature(publicKey: key.publicKey, detachedPayload: payload))
        #expect(!sign1.isValidSignature(publicKey: key.publicKey, detachedPayload: payload + [0], externalAAD: aad))
    }

    @Test("payloads at every byte string head length: the Sig_structure parts join to the Sig_structure and verify",
          arguments: [0, 23, 24, 255, 256, 65_535, 65_536, 150_000])
    func payloadHeadLengths(count: Int) throws {
        let key = try PrivateKey(generating: .p256)
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let sign1 = try COSESign1(encoded: try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key).encoded())
        let parts = sign1.toBeSignedParts()
        #expect(parts.prefix + Array(parts.payload) == sign1.toBeSigned())
        #expect(sign1.isValidSignature(publicKey: key.publicKey))
        let detached = try COSESign1.sign(payload: payload, detached: true, algorithm: .es256, key: key)
        let detachedParts = detached.toBeSignedParts(detachedPayload: payload)
        #expect(detachedParts.prefix + Array(detachedParts.payload) == detached.toBeSigned(detachedPayload: payload))
        #expect(detached.isValidSignature(publicKey: key.publicKey, detachedPayload: payload))
        #expect(!detached.isValidSignature(publicKey: key.publicKey, detachedPayload: payload + [0]))
    }

    @Test("ECDSA signatures are raw r||s of twice the coordinate width", arguments: signingPairs.filter { $0.0 != .edDSA })
    func rawSignatureWidth(algorithm: COSEAlgorithm, curve: Curve) throws {
        let sign1 = try COSESign1.sign(payload: payload, detached: false, algorithm: algorithm, key: try PrivateKey(generating: curve))
        #expect(sign1.signature.count == 2 * curve.coordinateByteCount)
    }

    @Test("a key on a curve that does not suit the algorithm cannot sign")
    func wrongCurveRejected() throws {
        let cases: [(COSEAlgorithm, Curve)] = [(.es256, .p384), (.es384, .p256), (.es512, .brainpoolP384r1),
                                               (.es256, .ed25519), (.edDSA, .p256), (.edDSA, .x25519), (.es384, .brainpoolP320r1)]
        for (algorithm, curve) in cases {
            #expect(throws: CryptoError(.curveMismatch, "")) {
                try COSESign1.sign(payload: payload, detached: false, algorithm: algorithm, key: try PrivateKey(generating: curve))
            }
        }
    }

    @Test("HMAC is not a signature algorithm")
    func hmacRejected() throws {
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) {
            try COSESign1.sign(payload: payload, detached: false, algorithm: .hmac256, key: try PrivateKey(generating: .p256))
        }
    }

    @Test("a public key on the wrong curve for the protected alg does not verify")
    func wrongCurveVerification() throws {
        let key = try PrivateKey(generating: .p256)
        let sign1 = try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key)
        #expect(sign1.isValidSignature(publicKey: key.publicKey))
        #expect(!sign1.isValidSignature(publicKey: try PrivateKey(generating: .p384).publicKey))
        #expect(!sign1.isValidSignature(publicKey: try PrivateKey(generating: .ed25519).publicKey))
    }

    @Test("a protected alg other than the one the key suits, or none at all, does not verify")
    func unsupportedOrMissingAlgorithm() throws {
        let key = try PrivateKey(generating: .p256)
        let signed = try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key)
        // PS256 (-37) is a COSE algorithm 18013-5 does not use.
        let ps256 = try COSEHeaders(protectedBytes: hex("a1013824"), unprotected: .init())
        let other = COSESign1(headers: ps256, payload: signed.payload, signature: signed.signature)
        #expect(other.algorithm == nil)
        #expect(!other.isValidSignature(publicKey: key.publicKey))
        let empty = try COSEHeaders(protectedBytes: [], unprotected: headerMap([1: -7]))
        let unprotectedAlg = COSESign1(headers: empty, payload: signed.payload, signature: signed.signature)
        #expect(unprotectedAlg.algorithm == nil, "ISO/IEC 18013-5 requires alg in the protected header")
        #expect(!unprotectedAlg.isValidSignature(publicKey: key.publicKey))
    }

    @Test("x5chain goes into the unprotected header, one certificate as a bstr, several as an array")
    func x5chainHeader() throws {
        let key = try PrivateKey(generating: .p256)
        let one = try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key,
                                     unprotectedHeaders: headerMap([33: COSEHeaders.x5chainValue([[0x30, 0x01]])]))
        #expect(one.unprotectedHeaders[int: 33] == .byteString([0x30, 0x01]))
        #expect(try COSESign1(encoded: one.encoded()).x5chain == [[0x30, 0x01]])
        let chain: [[UInt8]] = [[0x30, 0x01], [0x30, 0x02]]
        let two = try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key,
                                     unprotectedHeaders: headerMap([33: COSEHeaders.x5chainValue(chain)]))
        #expect(two.unprotectedHeaders[int: 33] == .array([.byteString([0x30, 0x01]), .byteString([0x30, 0x02])]))
        #expect(try COSESign1(encoded: two.encoded()).x5chain == chain)
        #expect(two.isValidSignature(publicKey: key.publicKey))
    }

    @Test("unprotected headers that repeat alg or carry a malformed x5chain are rejected")
    func invalidUnprotectedHeaders() throws {
        let key = try PrivateKey(generating: .p256)
        for headers in [headerMap([1: -7]), headerMap([33: 5]), headerMap([33: []])] {
            #expect(throws: CryptoError(.invalidParameter, "")) {
                try COSESign1.sign(payload: payload, detached: false, algorithm: .es256, key: key, unprotectedHeaders: headers)
            }
        }
    }
}
