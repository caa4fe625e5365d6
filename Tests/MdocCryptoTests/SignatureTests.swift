import MdocCrypto
import Testing

@Suite("ECDSA and EdDSA signatures")
struct SignatureTests {
    static let signingCurves = Curve.allCases.filter { !$0.isMontgomery }

    /// The digest COSE pairs with each curve size (ES256, ES384, ES512).
    static func digest(for curve: Curve) -> DigestAlgorithm {
        switch curve.coordinateByteCount {
        case ...32: return .sha256
        case ...48: return .sha384
        default: return .sha512
        }
    }

    @Test("sign and verify; a flipped bit in the signature or message fails", arguments: signingCurves)
    func signAndVerify(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let digest = Self.digest(for: curve)
        let message = Array("ISO/IEC 18013-5 mdoc".utf8)
        let signature = try key.signature(for: message, digest: digest)
        if curve.isWeierstrass {
            #expect(signature.count == 2 * curve.coordinateByteCount)
        } else {
            #expect(signature.count == (curve == .ed25519 ? 64 : 114))
        }
        #expect(key.publicKey.isValidSignature(signature, for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(flippingBit(signature, at: signature.count - 1), for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(flippingBit(signature, at: 0), for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(signature, for: flippingBit(message, at: 3), digest: digest))
        #expect(!key.publicKey.isValidSignature(signature.dropLast(), for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message, digest: digest))
        #expect(!key.publicKey.isValidSignature([], for: message, digest: digest))
        let otherKey = try PrivateKey(generating: curve).publicKey
        #expect(!otherKey.isValidSignature(signature, for: message, digest: digest))
    }

    @Test("an empty message signs and verifies", arguments: signingCurves)
    func emptyMessage(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let signature = try key.signature(for: [], digest: .sha256)
        #expect(key.publicKey.isValidSignature(signature, for: [], digest: .sha256))
        #expect(!key.publicKey.isValidSignature(signature, for: [0], digest: .sha256))
    }

    @Test("a message verifies in parts, split anywhere; a flipped bit in any part fails", arguments: signingCurves)
    func verifyInParts(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let digest = Self.digest(for: curve)
        let message = Array("ISO/IEC 18013-5 Sig_structure in parts".utf8)
        let signature = try key.signature(for: message, digest: digest)
        func verifies(_ parts: [[UInt8]]) -> Bool {
            func withBuffers(_ remaining: ArraySlice<[UInt8]>, _ buffers: [UnsafeRawBufferPointer]) -> Bool {
                guard let first = remaining.first else {
                    return key.publicKey.isValidSignature(signature, forConcatenationOf: buffers, digest: digest)
                }
                return first.withUnsafeBytes { withBuffers(remaining.dropFirst(), buffers + [$0]) }
            }
            return withBuffers(parts[...], [])
        }
        for cut in 0...message.count {
            let (head, tail) = (Array(message[..<cut]), Array(message[cut...]))
            #expect(verifies([head, tail]), "cut at \(cut)")
            #expect(verifies([[], head, [], tail]), "cut at \(cut) with empty parts")
        }
        let (head, tail) = (Array(message[..<10]), Array(message[10...]))
        #expect(verifies([message]))
        #expect(!verifies([flippingBit(head, at: 3), tail]))
        #expect(!verifies([head, flippingBit(tail, at: tail.count - 1)]))
        #expect(!verifies([tail, head]))
        #expect(!verifies([head, tail, [0]]))
        #expect(!verifies([head]))
        #expect(!key.publicKey.isValidSignature(flippingBit(signature, at: 0), forConcatenationOf: [], digest: digest))
    }

    @Test("ECDSA verification uses the given digest", arguments: DigestAlgorithm.allCases)
    func ecdsaDigestMatters(digest: DigestAlgorithm) throws {
        let key = try PrivateKey(generating: .p256)
        let message = Array("payload".utf8)
        let signature = try key.signature(for: message, digest: digest)
        for other in DigestAlgorithm.allCases {
            #expect(key.publicKey.isValidSignature(signature, for: message, digest: other) == (other == digest))
        }
    }

    @Test("ECDSA r‖s is fixed width and converts to DER that OpenSSL accepts")
    func ecdsaSignatureIsFixedWidth() throws {
        let key = try PrivateKey(generating: .p521)
        for index in 0..<8 {
            let message = [UInt8(index)]
            let raw = try key.signature(for: message, digest: .sha512)
            #expect(raw.count == 132)
            let der = try ECDSASignature.derFromRaw(raw)
            #expect(try ECDSASignature.rawFromDER(der, coordinateByteCount: 66) == raw)
        }
    }

    @Test("key agreement keys cannot sign or verify", arguments: [Curve.x25519, .x448])
    func montgomeryKeysDoNotSign(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try key.signature(for: [1], digest: .sha256) }
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: [1], digest: .sha256))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), forConcatenationOf: [], digest: .sha256))
    }

    @Test("RFC 8032 section 7.1 test 2 (Ed25519)")
    func ed25519KnownAnswer() throws {
        let key = try PrivateKey(rawRepresentation: hex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb"), curve: .ed25519)
        #expect(key.publicKey.rawRepresentation == hex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"))
        let expected = hex(
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
        #expect(try key.signature(for: [0x72], digest: .sha256) == expected)
        #expect(key.publicKey.isValidSignature(expected, for: [0x72], digest: .sha256))
    }
}
