import MdocCrypto
import Testing

@Suite("Key agreement")
struct KeyAgreementTests {
    static let agreementCurves = Curve.allCases.filter { !$0.isEdwards }

    @Test("both directions give the same secret", arguments: agreementCurves)
    func bothDirectionsAgree(curve: Curve) throws {
        let alice = try PrivateKey(generating: curve)
        let bob = try PrivateKey(generating: curve)
        let one = try alice.sharedSecret(with: bob.publicKey)
        let other = try bob.sharedSecret(with: alice.publicKey)
        #expect(one.byteCount == curve.coordinateByteCount)
        #expect(one.withUnsafeBytes { Array($0) } == other.withUnsafeBytes { Array($0) })
        let third = try alice.sharedSecret(with: PrivateKey(generating: curve).publicKey)
        #expect(one.withUnsafeBytes { Array($0) } != third.withUnsafeBytes { Array($0) })
    }

    @Test("a peer key on another curve is refused", arguments: agreementCurves)
    func curveMismatch(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        for other in Self.agreementCurves where other != curve {
            let peer = try PrivateKey(generating: other).publicKey
            #expect(throws: CryptoError(.curveMismatch, "")) { try key.sharedSecret(with: peer) }
        }
    }

    @Test("an off-curve peer point never becomes a key", arguments: Curve.allCases.filter(\.isWeierstrass))
    func offCurvePeer(curve: Curve) throws {
        let (x, y) = try #require(PrivateKey(generating: curve).publicKey.coordinates)
        #expect(throws: CryptoError(.invalidPoint, "")) {
            try PublicKey(x: x, y: flippingBit(y, at: y.count - 1), curve: curve)
        }
        #expect(throws: CryptoError(.invalidPoint, "")) {
            try PublicKey(x963Representation: [0x00], curve: curve)
        }
    }

    /// SubjectPublicKeyInfo (RFC 5480) whose subjectPublicKey is the SEC1 encoding 00 of the
    /// point at infinity: OpenSSL decodes it, so only the peer check in `sharedSecret` stops it.
    static let identityPeers: [(Curve, String)] = [
        (.p256, "3019301306072a8648ce3d020106082a8648ce3d03010703020000"),
        (.p384, "3016301006072a8648ce3d020106052b8104002203020000"),
    ]

    @Test("a peer key that is the point at infinity is refused", arguments: identityPeers)
    func identityPeer(curve: Curve, spki: String) throws {
        let peer = try PublicKey(derRepresentation: hex(spki))
        #expect(peer.curve == curve)
        let error = try #require(throws: CryptoError.self) { try PrivateKey(generating: curve).sharedSecret(with: peer) }
        #expect(error.code == .invalidPoint)
        #expect(error.reason.contains("fails validation"))
    }

    @Test("low-order X25519 and X448 points are refused", arguments: [Curve.x25519, .x448])
    func lowOrderPoints(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        for lowOrder in [[UInt8](repeating: 0, count: curve.coordinateByteCount), [1] + [UInt8](repeating: 0, count: curve.coordinateByteCount - 1)] {
            let peer = try PublicKey(rawRepresentation: lowOrder, curve: curve)
            #expect(throws: CryptoError(.invalidPoint, "")) { try key.sharedSecret(with: peer) }
        }
    }

    @Test("Edwards keys cannot agree keys", arguments: [Curve.ed25519, .ed448])
    func edwardsKeysDoNotAgree(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try key.sharedSecret(with: key.publicKey) }
    }

    @Test("RFC 7748 section 6.1 (X25519)")
    func x25519KnownAnswer() throws {
        let alice = try PrivateKey(rawRepresentation: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"), curve: .x25519)
        #expect(alice.publicKey.rawRepresentation == hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"))
        let bob = try PublicKey(rawRepresentation: hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"), curve: .x25519)
        let secret = try alice.sharedSecret(with: bob)
        #expect(secret.withUnsafeBytes { Array($0) } == hex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"))
        #expect(secret.description == "SharedSecret(32 bytes)")
    }
}
