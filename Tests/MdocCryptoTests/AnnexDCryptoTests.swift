import MdocCrypto
import MdocTestSupport
import Testing

/// The cryptography of the ISO/IEC 18013-5 Annex D session (D.5.1 and D.5.3) with the published
/// keys. Facts: Vectors/iso18013-5-annex-d/README.md.
@Suite("Annex D session cryptography")
struct AnnexDCryptoTests {
    static func p256Key(_ name: String) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: Vectors.annexD("\(name)_private"), curve: .p256)
    }

    static func p256PublicKey(_ name: String) throws -> PublicKey {
        try PublicKey(x: Vectors.annexD("\(name)_public_x"), y: Vectors.annexD("\(name)_public_y"), curve: .p256)
    }

    /// HKDF salt: SHA-256 of the tagged SessionTranscriptBytes (9.1.1.5).
    static var salt: [UInt8] { DigestAlgorithm.sha256.hash(Vectors.annexD("session_transcript_bytes")) }

    @Test("each published private scalar reproduces its published point", arguments: ["eReaderKey", "eDeviceKey", "sDeviceKey"])
    func scalarsReproducePoints(name: String) throws {
        let key = try Self.p256Key(name)
        let (x, y) = try #require(key.publicKey.coordinates)
        #expect(x == Vectors.annexD("\(name)_public_x"))
        #expect(y == Vectors.annexD("\(name)_public_y"))
        #expect(key.publicKey == (try Self.p256PublicKey(name)))
    }

    @Test("Z_AB = ECDH(EDeviceKey, EReaderKey), both directions")
    func sessionSharedSecret() throws {
        let expected = Vectors.annexD("session_shared_secret_zab")
        let deviceSide = try Self.p256Key("eDeviceKey").sharedSecret(with: Self.p256PublicKey("eReaderKey"))
        let readerSide = try Self.p256Key("eReaderKey").sharedSecret(with: Self.p256PublicKey("eDeviceKey"))
        #expect(deviceSide.withUnsafeBytes { Array($0) } == expected)
        #expect(readerSide.withUnsafeBytes { Array($0) } == expected)
    }

    @Test("EMacKey's Z = ECDH(SDeviceKey, EReaderKey)")
    func macSharedSecret() throws {
        let secret = try Self.p256Key("sDeviceKey").sharedSecret(with: Self.p256PublicKey("eReaderKey"))
        #expect(secret.withUnsafeBytes { Array($0) } == Vectors.annexD("emac_shared_secret_zab"))
    }

    @Test("SKReader, SKDevice and EMacKey by HKDF-SHA-256 (9.1.1.5, 9.1.3.5)")
    func sessionKeys() throws {
        #expect(Self.salt == hex("f823ac566e22b2106c9b7c02fadc7482e559a1de8a809b56c828779e6d67570e"))
        let zab = try Self.p256Key("eDeviceKey").sharedSecret(with: Self.p256PublicKey("eReaderKey"))
        let skReader = try zab.hkdfDerivedSymmetricKey(salt: Self.salt, info: Array("SKReader".utf8), outputByteCount: 32)
        let skDevice = try zab.hkdfDerivedSymmetricKey(salt: Self.salt, info: Array("SKDevice".utf8), outputByteCount: 32)
        #expect(skReader.bytes == Vectors.annexD("SKReader"))
        #expect(skDevice.bytes == Vectors.annexD("SKDevice"))
        let macZ = try Self.p256Key("sDeviceKey").sharedSecret(with: Self.p256PublicKey("eReaderKey"))
        let eMacKey = try macZ.hkdfDerivedSymmetricKey(salt: Self.salt, info: Array("EMacKey".utf8), outputByteCount: 32)
        #expect(eMacKey.bytes == Vectors.annexD("EMacKey"))
    }

    @Test("SessionEstablishment data: DeviceRequest sealed with SKReader, reader counter 1")
    func sessionEstablishmentEncryption() throws {
        let key = SymmetricKey(bytes: Vectors.annexD("SKReader"))
        let nonce = [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1]
        let ciphertext = Vectors.annexD("session_establishment_ciphertext")
        #expect(try AESGCM.seal(Vectors.annexD("device_request"), key: key, nonce: nonce) == ciphertext)
        #expect(try AESGCM.open(ciphertext, key: key, nonce: nonce) == Vectors.annexD("device_request"))
        #expect(throws: CryptoError(.authenticationFailure, "")) {
            try AESGCM.open(flippingBit(ciphertext, at: ciphertext.count - 1), key: key, nonce: nonce)
        }
    }

    @Test("SessionData data: DeviceResponse opened with SKDevice, mdoc counter 1")
    func sessionDataDecryption() throws {
        let key = SymmetricKey(bytes: Vectors.annexD("SKDevice"))
        let nonce: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 1]
        let ciphertext = Vectors.annexD("session_data_response_ciphertext")
        #expect(try AESGCM.open(ciphertext, key: key, nonce: nonce) == Vectors.annexD("device_response"))
        // The reader's identifier with the same counter is the wrong nonce.
        #expect(throws: CryptoError(.authenticationFailure, "")) {
            try AESGCM.open(ciphertext, key: key, nonce: [UInt8](repeating: 0, count: 8) + [0, 0, 0, 1])
        }
    }

    @Test("DeviceMac tag = HMAC-SHA-256(EMacKey, MAC_structure) (D.5.3)")
    func deviceMac() {
        let key = SymmetricKey(bytes: Vectors.annexD("EMacKey"))
        let structure = Vectors.annexD("device_auth_mac_structure")
        let tag = Vectors.annexD("device_mac_tag")
        #expect(HMACSHA256.authenticationCode(for: structure, key: key) == tag)
        #expect(HMACSHA256.isValidAuthenticationCode(tag, for: structure, key: key))
        // BDR's negative case: the first key byte changed.
        var wrongKey = Vectors.annexD("EMacKey")
        wrongKey[0] ^= 0x10
        #expect(!HMACSHA256.isValidAuthenticationCode(tag, for: structure, key: SymmetricKey(bytes: wrongKey)))
    }
}
