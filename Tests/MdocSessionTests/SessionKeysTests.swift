import MdocCrypto
import MdocSession
import Testing

@Suite("Session keys and EMacKey derivation (ISO/IEC 18013-5 9.1.1.5, 9.1.3.5)")
struct SessionKeysTests {
    static let transcriptBytes: [UInt8] = [0xd8, 0x18, 0x44, 0x83, 0xf6, 0xf6, 0xf6]

    @Test("both sides derive the same 32-byte SKReader, SKDevice and EMacKey")
    func bothSidesAgree() throws {
        let device = try PrivateKey(generating: .p256)
        let reader = try PrivateKey(generating: .p256)
        let mdocKeys = try SessionKeys(privateKey: device, peerPublicKey: reader.publicKey, sessionTranscriptBytes: Self.transcriptBytes)
        let readerKeys = try SessionKeys(privateKey: reader, peerPublicKey: device.publicKey, sessionTranscriptBytes: Self.transcriptBytes)
        #expect(mdocKeys.skReader == readerKeys.skReader)
        #expect(mdocKeys.skDevice == readerKeys.skDevice)
        #expect(mdocKeys.skReader.byteCount == SessionKeys.keyByteCount)
        #expect(mdocKeys.skDevice.byteCount == SessionKeys.keyByteCount)
        #expect(SessionKeys.readerInfo == Array("SKReader".utf8))
        #expect(SessionKeys.deviceInfo == Array("SKDevice".utf8))

        let macMdoc = try EMacKey.derive(privateKey: device, peerPublicKey: reader.publicKey, sessionTranscriptBytes: Self.transcriptBytes)
        let macReader = try EMacKey.derive(privateKey: reader, peerPublicKey: device.publicKey, sessionTranscriptBytes: Self.transcriptBytes)
        #expect(macMdoc == macReader)
        #expect(macMdoc.byteCount == EMacKey.keyByteCount)
        #expect(macMdoc != mdocKeys.skReader && macMdoc != mdocKeys.skDevice)
    }

    @Test("another transcript gives other keys")
    func transcriptIsTheSalt() throws {
        let device = try PrivateKey(generating: .p256)
        let reader = try PrivateKey(generating: .p256)
        let first = try SessionKeys(privateKey: device, peerPublicKey: reader.publicKey, sessionTranscriptBytes: Self.transcriptBytes)
        let second = try SessionKeys(privateKey: device, peerPublicKey: reader.publicKey, sessionTranscriptBytes: Self.transcriptBytes + [0])
        #expect(first.skReader != second.skReader)
        #expect(first.skDevice != second.skDevice)
    }

    @Test("a peer key on another curve fails key agreement", arguments: [Curve.p384, .p521, .brainpoolP256r1, .x25519])
    func peerOnAnotherCurve(curve: Curve) throws {
        let own = try PrivateKey(generating: .p256)
        let peer = try PrivateKey(generating: curve).publicKey
        #expect(throws: CryptoError(.curveMismatch, "")) {
            _ = try SessionKeys(privateKey: own, peerPublicKey: peer, sessionTranscriptBytes: Self.transcriptBytes)
        }
        #expect(throws: CryptoError(.curveMismatch, "")) {
            _ = try EMacKey.derive(privateKey: own, peerPublicKey: peer, sessionTranscriptBytes: Self.transcriptBytes)
        }
    }
}
