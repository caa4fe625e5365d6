import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

@Suite("ISO/IEC 18013-5 Annex D.5.1: session encryption")
struct D51SessionEncryptionTests {
    // MARK: Messages

    @Test("D.5.1 SessionEstablishment decodes and re-encodes byte-exactly")
    func sessionEstablishment() throws {
        let bytes = AnnexD.bytes("session_establishment")
        let message = try SessionEstablishment(encoded: bytes)
        #expect(message.encoded() == bytes)
        #expect(message.eReaderKey.cbor.encoded() == AnnexD.bytes("e_reader_key_bytes"))
        #expect(try message.eReaderKey.value.publicKey() == AnnexD.publicKey("eReaderKey"))
        #expect(message.data == AnnexD.bytes("session_establishment_ciphertext"))
    }

    @Test("D.5.1 SessionData with data and SessionData termination decode and re-encode byte-exactly")
    func sessionData() throws {
        let response = AnnexD.bytes("session_data_response")
        let data = try SessionData(encoded: response)
        #expect(data.encoded() == response)
        #expect(data.data == AnnexD.bytes("session_data_response_ciphertext"))
        #expect(data.status == nil)

        let termination = AnnexD.bytes("session_termination")
        let end = try SessionData(encoded: termination)
        #expect(end.encoded() == termination)
        #expect(end.data == nil)
        #expect(end.status == .sessionTermination)
    }

    // MARK: Session transcript

    @Test("D.5.1 SessionTranscriptBytes: NFC engagement, EReaderKeyBytes and NFC handover, kept byte-exactly")
    func sessionTranscript() throws {
        let binding = try AnnexD.transcript()
        #expect(binding.taggedBytes == AnnexD.bytes("session_transcript_bytes"))
        #expect(binding.itemBytes == AnnexD.bytes("session_transcript"))
        #expect(binding.transcript.encoded() == AnnexD.bytes("session_transcript"))
        #expect(binding.transcript.bytes.cbor.encoded() == AnnexD.bytes("session_transcript_bytes"))
        #expect(binding.transcript.deviceEngagementBytes.map { Array($0.bytes) } == AnnexD.bytes("device_engagement_nfc"))
        #expect(binding.transcript.eReaderKeyBytes?.cbor.encoded() == AnnexD.bytes("e_reader_key_bytes"))
        #expect(binding.transcript.handover == .nfc(
            handoverSelect: AnnexD.bytes("nfc_handover_select"), handoverRequest: AnnexD.bytes("nfc_handover_request")))
    }

    @Test("D.5.1 the bare SessionTranscript binds to the same SessionTranscriptBytes")
    func bareSessionTranscript() throws {
        let bare = try SessionTranscriptBinding(encoded: AnnexD.bytes("session_transcript"))
        #expect(bare.itemBytes == AnnexD.bytes("session_transcript"))
        #expect(bare.taggedBytes == AnnexD.bytes("session_transcript_bytes"))

        let built = SessionTranscriptBinding(try SessionTranscript(encoded: AnnexD.bytes("session_transcript")))
        #expect(built.taggedBytes == AnnexD.bytes("session_transcript_bytes"))
    }

    @Test("D.5.1 the HKDF salt is SHA-256(SessionTranscriptBytes) = f823ac56...570e")
    func salt() throws {
        let binding = try AnnexD.transcript()
        #expect(Hex.encode(DigestAlgorithm.sha256.hash(binding.taggedBytes)) == AnnexD.salt)
    }

    // MARK: Session keys

    @Test("D.5.1 SKReader and SKDevice from the mdoc side: EDeviceKey private, EReaderKey from SessionEstablishment")
    func sessionKeysMdocSide() throws {
        let establishment = try SessionEstablishment(encoded: AnnexD.bytes("session_establishment"))
        let keys = try SessionKeys(
            privateKey: AnnexD.privateKey("eDeviceKey"),
            peerPublicKey: establishment.eReaderKey.value.publicKey(),
            sessionTranscriptBytes: AnnexD.transcript().taggedBytes)
        #expect(keys.skReader.bytes == AnnexD.bytes("SKReader"))
        #expect(keys.skDevice.bytes == AnnexD.bytes("SKDevice"))
    }

    @Test("D.5.1 SKReader and SKDevice from the reader side: EReaderKey private, EDeviceKey from the engagement's Security")
    func sessionKeysReaderSide() throws {
        let binding = try AnnexD.transcript()
        let engagement = try #require(binding.transcript.deviceEngagementBytes?.value)
        let keys = try SessionKeys(
            privateKey: AnnexD.privateKey("eReaderKey"),
            peerPublicKey: engagement.security.eDeviceKeyBytes.value.publicKey(),
            sessionTranscriptBytes: binding.taggedBytes)
        #expect(keys.skReader.bytes == AnnexD.bytes("SKReader"))
        #expect(keys.skDevice.bytes == AnnexD.bytes("SKDevice"))
    }

    @Test("D.5.1 the shared secret Z_AB = ECDH(EDeviceKey, EReaderKey) is the same from both sides")
    func sharedSecret() throws {
        let mdoc = try AnnexD.privateKey("eDeviceKey").sharedSecret(with: AnnexD.publicKey("eReaderKey"))
        let reader = try AnnexD.privateKey("eReaderKey").sharedSecret(with: AnnexD.publicKey("eDeviceKey"))
        let expected = AnnexD.bytes("session_shared_secret_zab")
        #expect(mdoc.withUnsafeBytes { Array($0) } == expected)
        #expect(reader.withUnsafeBytes { Array($0) } == expected)
    }

    // MARK: Encryption

    @Test("D.5.1 the mdoc decrypts SessionEstablishment data (SKReader, counter 1) to the DeviceRequest")
    func mdocDecryptsRequest() throws {
        var mdoc = try Self.encryption(.mdoc)
        let establishment = try SessionEstablishment(encoded: AnnexD.bytes("session_establishment"))
        #expect(try mdoc.decrypt(establishment.data) == AnnexD.bytes("device_request"))
        #expect(mdoc.receiveCounter == 2)
        #expect(mdoc.sendCounter == 1)
    }

    @Test("D.5.1 the reader decrypts SessionData data (SKDevice, counter 1) to the DeviceResponse")
    func readerDecryptsResponse() throws {
        var reader = try Self.encryption(.reader)
        let sessionData = try SessionData(encoded: AnnexD.bytes("session_data_response"))
        let ciphertext = try #require(sessionData.data)
        #expect(try reader.decrypt(ciphertext) == AnnexD.bytes("device_response"))
        #expect(reader.receiveCounter == 2)
    }

    @Test("D.5.1 the reader encrypting the DeviceRequest reproduces SessionEstablishment exactly")
    func readerEncryptsRequest() throws {
        var reader = try Self.encryption(.reader)
        let ciphertext = try reader.encrypt(AnnexD.bytes("device_request"))
        #expect(ciphertext == AnnexD.bytes("session_establishment_ciphertext"))
        #expect(reader.sendCounter == 2)
        let establishment = SessionEstablishment(
            eReaderKey: try EmbeddedCBOR(cbor: CBOR.decode(AnnexD.bytes("e_reader_key_bytes")), at: .root),
            data: ciphertext)
        #expect(establishment.encoded() == AnnexD.bytes("session_establishment"))
    }

    @Test("D.5.1 the mdoc encrypting the DeviceResponse reproduces SessionData exactly")
    func mdocEncryptsResponse() throws {
        var mdoc = try Self.encryption(.mdoc)
        let ciphertext = try mdoc.encrypt(AnnexD.bytes("device_response"))
        #expect(ciphertext == AnnexD.bytes("session_data_response_ciphertext"))
        #expect(SessionData(data: ciphertext).encoded() == AnnexD.bytes("session_data_response"))
    }

    /// The session encryption of `role`, with keys derived from that side's private key.
    static func encryption(_ role: SessionRole) throws -> SessionEncryption {
        let keys = switch role {
        case .mdoc:
            try SessionKeys(
                privateKey: AnnexD.privateKey("eDeviceKey"), peerPublicKey: AnnexD.publicKey("eReaderKey"),
                sessionTranscriptBytes: AnnexD.bytes("session_transcript_bytes"))
        case .reader:
            try SessionKeys(
                privateKey: AnnexD.privateKey("eReaderKey"), peerPublicKey: AnnexD.publicKey("eDeviceKey"),
                sessionTranscriptBytes: AnnexD.bytes("session_transcript_bytes"))
        }
        return SessionEncryption(role: role, keys: keys)
    }
}
