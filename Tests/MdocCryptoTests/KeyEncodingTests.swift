import MdocCrypto
import MdocTestSupport
import Testing

@Suite("Key encodings")
struct KeyEncodingTests {
    @Test("generate, then raw private key round trip", arguments: Curve.allCases)
    func rawPrivateRoundTrip(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        #expect(key.curve == curve)
        #expect(key.description == "PrivateKey(\(curve))")
        let raw = key.rawRepresentation
        #expect(raw.count == curve.coordinateByteCount)
        let again = try PrivateKey(rawRepresentation: raw, curve: curve)
        #expect(again.rawRepresentation == raw)
        #expect(again.publicKey == key.publicKey)
    }

    @Test("private PEM (PKCS#8) and DER round trips", arguments: Curve.allCases)
    func privatePEMAndDERRoundTrip(curve: Curve) throws {
        let key = try PrivateKey(generating: curve)
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let fromPEM = try PrivateKey(pemRepresentation: pem)
        #expect(fromPEM.curve == curve)
        #expect(fromPEM.rawRepresentation == key.rawRepresentation)
        let fromDER = try PrivateKey(derRepresentation: key.derRepresentation)
        #expect(fromDER.rawRepresentation == key.rawRepresentation)
        #expect(fromDER.publicKey == key.publicKey)
    }

    @Test("public raw, SPKI DER and PEM round trips", arguments: Curve.allCases)
    func publicRoundTrips(curve: Curve) throws {
        let publicKey = try PrivateKey(generating: curve).publicKey
        #expect(try PublicKey(rawRepresentation: publicKey.rawRepresentation, curve: curve) == publicKey)
        #expect(try PublicKey(derRepresentation: publicKey.derRepresentation) == publicKey)
        let pem = publicKey.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(try PublicKey(pemRepresentation: pem) == publicKey)
        #expect(try PrivateKey(generating: curve).publicKey != publicKey)
    }

    @Test("SEC1 uncompressed and compressed points, coordinates", arguments: Curve.allCases.filter(\.isWeierstrass))
    func sec1RoundTrips(curve: Curve) throws {
        let publicKey = try PrivateKey(generating: curve).publicKey
        let (x, y) = try #require(publicKey.coordinates)
        #expect(x.count == curve.coordinateByteCount && y.count == curve.coordinateByteCount)
        #expect(publicKey.x963Representation == [0x04] + x + y)
        #expect(publicKey.rawRepresentation == x + y)
        #expect(try PublicKey(x963Representation: publicKey.x963Representation, curve: curve) == publicKey)
        #expect(try PublicKey(x: x, y: y, curve: curve) == publicKey)
        let compressed = [0x02 | (y[y.count - 1] & 1)] + x
        let decompressed = try PublicKey(x963Representation: compressed, curve: curve)
        #expect(decompressed == publicKey)
        #expect(decompressed.x963Representation == publicKey.x963Representation)
    }

    @Test("OKP keys have no coordinates and no SEC1 form", arguments: Curve.allCases.filter { !$0.isWeierstrass })
    func octetKeyPairs(curve: Curve) throws {
        let publicKey = try PrivateKey(generating: curve).publicKey
        #expect(publicKey.coordinates == nil)
        #expect(publicKey.rawRepresentation.count == curve.coordinateByteCount)
        #expect(publicKey.x963Representation == publicKey.rawRepresentation)
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) {
            try PublicKey(x963Representation: [0x04] + publicKey.rawRepresentation, curve: curve)
        }
    }

    @Test("SEC1 EC PRIVATE KEY input without a public key (Annex D EReaderKey)")
    func sec1PrivateKeyPEM() throws {
        let pem = """
            -----BEGIN EC PRIVATE KEY-----
            MDECAQEEIN47S55fct2bWEBq4wkUNNpIpvn9AQ2I/LCVjizr7JR8oAoGCCqGSM49
            AwEH
            -----END EC PRIVATE KEY-----
            """
        let key = try PrivateKey(pemRepresentation: pem)
        #expect(key.curve == .p256)
        #expect(key.rawRepresentation == Vectors.annexD("eReaderKey_private"))
        let (x, y) = try #require(key.publicKey.coordinates)
        #expect(x == Vectors.annexD("eReaderKey_public_x"))
        #expect(y == Vectors.annexD("eReaderKey_public_y"))
        // The same structure in DER.
        let der = hex("30310201010420de3b4b9e5f72dd9b58406ae3091434da48a6f9fd010d88fcb0958e2cebec947ca00a06082a8648ce3d030107")
        #expect(try PrivateKey(derRepresentation: der).rawRepresentation == key.rawRepresentation)
    }

    @Test("a SEC1 key whose public key is not d·G is refused")
    func mismatchedKeyPair() {
        // Annex D EReaderKey's d with EDeviceKey's public point.
        let der = hex(
            "30770201010420de3b4b9e5f72dd9b58406ae3091434da48a6f9fd010d88fcb0958e2cebec947ca00a06082a8648ce3d030107"
                + "a144034200045a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa444b624343167feb16e8cf858ddc769"
                + "0407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc67")
        #expect(throws: CryptoError(.invalidKey, "")) { try PrivateKey(derRepresentation: der) }
    }

    @Test("malformed public keys are rejected with the right code")
    func invalidPublicKeys() throws {
        let publicKey = try PrivateKey(generating: .p256).publicKey
        let (x, y) = try #require(publicKey.coordinates)
        let invalidKey = CryptoError(.invalidKey, "")
        let invalidPoint = CryptoError(.invalidPoint, "")
        #expect(throws: invalidKey) { try PublicKey(x963Representation: [], curve: .p256) }
        #expect(throws: invalidKey) { try PublicKey(x963Representation: [0x04] + x + y.dropLast(), curve: .p256) }
        #expect(throws: invalidKey) { try PublicKey(x963Representation: [0x06] + x + y, curve: .p256) }
        #expect(throws: invalidKey) { try PublicKey(x963Representation: [0x02] + x + [0], curve: .p256) }
        #expect(throws: invalidKey) { try PublicKey(x: x, y: [0] + y, curve: .p256) }
        #expect(throws: invalidPoint) { try PublicKey(x963Representation: [0x00], curve: .p256) }
        #expect(throws: invalidPoint) { try PublicKey(x: x, y: flippingBit(y, at: 31), curve: .p256) }
        #expect(throws: invalidPoint) { try PublicKey(x963Representation: publicKey.x963Representation, curve: .brainpoolP256r1) }
        #expect(throws: invalidKey) { try PublicKey(rawRepresentation: [UInt8](repeating: 9, count: 31), curve: .x25519) }
        #expect(throws: invalidKey) { try PublicKey(derRepresentation: [0x30, 0x00]) }
        #expect(throws: invalidKey) { try PublicKey(derRepresentation: publicKey.derRepresentation + [0]) }
        #expect(throws: invalidKey) { try PublicKey(pemRepresentation: "no key here") }
    }

    @Test("public keys on curves 18013-5 does not allow are refused")
    func unsupportedPublicKeys() {
        let secp256k1 = """
            -----BEGIN PUBLIC KEY-----
            MFYwEAYHKoZIzj0CAQYFK4EEAAoDQgAE1Ajeyc76RD3/VOvYY5VlsyZfr0pw5/Pb
            2RuKeJYpjIkFi2sqclrLhJpUVlK/qYuPOKHFG6OETavh+5euOrJZ9A==
            -----END PUBLIC KEY-----
            """
        let rsa = """
            -----BEGIN PUBLIC KEY-----
            MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBALVOdgz/LwKo5bd4yhlHEpbXg1/+p0fC
            7i67ZorcH3J/DOw0VXmfjKYmTZCGSg+YgmgHe2O371GjNs86cYmJEOcCAwEAAQ==
            -----END PUBLIC KEY-----
            """
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try PublicKey(pemRepresentation: secp256k1) }
        #expect(throws: CryptoError(.unsupportedAlgorithm, "")) { try PublicKey(pemRepresentation: rsa) }
    }

    @Test("private scalars outside 1...n-1 and wrong lengths are rejected")
    func invalidPrivateKeys() {
        let invalidKey = CryptoError(.invalidKey, "")
        #expect(throws: invalidKey) { try PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32), curve: .p256) }
        // n, the order of P-256.
        let order = hex("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: invalidKey) { try PrivateKey(rawRepresentation: order, curve: .p256) }
        var belowOrder = order
        belowOrder[31] -= 1
        #expect((try? PrivateKey(rawRepresentation: belowOrder, curve: .p256)) != nil)
        #expect(throws: invalidKey) { try PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31), curve: .p256) }
        #expect(throws: invalidKey) { try PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 33), curve: .ed25519) }
        #expect(throws: invalidKey) { try PrivateKey(derRepresentation: []) }
        #expect(throws: invalidKey) { try PrivateKey(pemRepresentation: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
    }

    @Test("an encrypted PEM key is refused without asking for a passphrase")
    func encryptedPrivateKeyRefused() {
        let encrypted = """
            -----BEGIN ENCRYPTED PRIVATE KEY-----
            MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhS5q39jCR3LgICCAAw
            DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEECAyuaDSHz1oePNHA0dpAKAEQBQv
            DEaB211kZHULSl3ysmCSq1gAhRuiHdsOI3q68XdmGRWXy+8iWbPzEt3D//EPcXa3
            IGBXGAvyWJhygpwGTnI=
            -----END ENCRYPTED PRIVATE KEY-----
            """
        #expect(throws: CryptoError(.invalidKey, "")) { try PrivateKey(pemRepresentation: encrypted) }
    }

    @Test("PEM input size limit: accepted at the limit, refused one byte over")
    func encodedSizeLimit() throws {
        let key = try PrivateKey(generating: .p256)
        func padded<T>(_ pem: String, to total: Int, _ make: (String) throws -> T) rethrows -> T {
            // Text before the PEM block is ignored by the reader.
            let filler = String(repeating: "#", count: total - pem.utf8.count - 1) + "\n"
            return try make(filler + pem)
        }
        let publicPEM = key.publicKey.pemRepresentation
        let publicLimit = PublicKey.maximumEncodedByteCount
        #expect(try padded(publicPEM, to: publicLimit, PublicKey.init(pemRepresentation:)) == key.publicKey)
        #expect(throws: CryptoError(.invalidKey, "")) {
            try padded(publicPEM, to: publicLimit + 1, PublicKey.init(pemRepresentation:))
        }
        let privatePEM = key.pemRepresentation
        let privateLimit = PrivateKey.maximumEncodedByteCount
        #expect(try padded(privatePEM, to: privateLimit, PrivateKey.init(pemRepresentation:)).publicKey == key.publicKey)
        #expect(throws: CryptoError(.invalidKey, "")) {
            try padded(privatePEM, to: privateLimit + 1, PrivateKey.init(pemRepresentation:))
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PublicKey(derRepresentation: key.publicKey.derRepresentation + [UInt8](repeating: 0, count: publicLimit))
        }
        #expect(throws: CryptoError(.invalidKey, "")) {
            try PrivateKey(derRepresentation: key.derRepresentation + [UInt8](repeating: 0, count: privateLimit))
        }
    }

    @Test("SEC1 imports running at once on every curve give the keys they encode")
    func concurrentSEC1Imports() async throws {
        let keys = try Curve.allCases.filter(\.isWeierstrass).map { try PrivateKey(generating: $0).publicKey }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                for key in keys {
                    group.addTask {
                        for _ in 0..<8 {
                            let imported = try PublicKey(x963Representation: key.x963Representation, curve: key.curve)
                            #expect(imported.curve == key.curve)
                            #expect(imported.derRepresentation == key.derRepresentation)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
