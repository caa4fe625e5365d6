import MdocCOSE
import MdocCrypto
import Testing

@Suite("COSE algorithms")
struct COSEAlgorithmTests {
    @Test("IANA values")
    func values() {
        #expect(COSEAlgorithm.es256.rawValue == -7)
        #expect(COSEAlgorithm.es384.rawValue == -35)
        #expect(COSEAlgorithm.es512.rawValue == -36)
        #expect(COSEAlgorithm.edDSA.rawValue == -8)
        #expect(COSEAlgorithm.hmac256.rawValue == 5)
        #expect(COSEAlgorithm(rawValue: -37) == nil)
        #expect(COSEAlgorithm.allCases.map(\.description) == ["ES256", "ES384", "ES512", "EdDSA", "HMAC 256/256"])
    }

    @Test("digests")
    func digests() {
        #expect(COSEAlgorithm.es256.digest == .sha256)
        #expect(COSEAlgorithm.es384.digest == .sha384)
        #expect(COSEAlgorithm.es512.digest == .sha512)
        #expect(COSEAlgorithm.edDSA.digest == nil)
        #expect(COSEAlgorithm.hmac256.digest == .sha256)
        #expect(COSEAlgorithm.allCases.filter(\.isSignatureAlgorithm) == [.es256, .es384, .es512, .edDSA])
    }

    @Test("a key signs MSOs and certificates with the same hash: COSE algorithm and Curve.signatureDigest agree",
          arguments: Curve.allCases)
    func oneDigestPerCurve(curve: Curve) {
        let algorithm = COSEAlgorithm.signatureAlgorithm(forKeyOn: curve)
        #expect(algorithm?.digest == curve.signatureDigest)
        #expect((algorithm == nil) == curve.isMontgomery)
    }

    @Test("curve mapping of ISO/IEC 18013-5 Table 22")
    func curveMapping() {
        #expect(COSEAlgorithm.es256.curves == [.p256, .brainpoolP256r1, .brainpoolP320r1])
        #expect(COSEAlgorithm.es384.curves == [.p384, .brainpoolP384r1])
        #expect(COSEAlgorithm.es512.curves == [.p521, .brainpoolP512r1])
        #expect(COSEAlgorithm.edDSA.curves == [.ed25519, .ed448])
        #expect(COSEAlgorithm.hmac256.curves.isEmpty)
        // Every signing curve has exactly one algorithm; the key-agreement curves have none.
        for curve in Curve.allCases {
            let algorithms = COSEAlgorithm.allCases.filter { $0.isSuitable(for: curve) }
            #expect(algorithms.count == (curve.isMontgomery ? 0 : 1), "\(curve)")
        }
        #expect(!COSEAlgorithm.es256.isSuitable(for: .p384))
        #expect(!COSEAlgorithm.edDSA.isSuitable(for: .x25519))
    }
}
