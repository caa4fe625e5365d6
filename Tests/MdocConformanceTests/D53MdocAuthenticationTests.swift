import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import Testing

@Suite("ISO/IEC 18013-5 Annex D.5.3: mdoc authentication")
struct D53MdocAuthenticationTests {
    @Test("D.5.3 DeviceAuth decodes and re-encodes byte-exactly")
    func deviceAuth() throws {
        let bytes = AnnexD.bytes("device_auth")
        let deviceAuth = try DeviceAuth(encoded: bytes)
        #expect(deviceAuth.encoded() == bytes)
        guard case .deviceMac(let mac) = deviceAuth else {
            Issue.record("the Annex D DeviceAuth must be a DeviceMac")
            return
        }
        #expect(mac.algorithm == .hmac256)
        #expect(mac.protectedHeaderBytes == [0xa1, 0x01, 0x05])
        #expect(mac.unprotectedHeaders.isEmpty)
        #expect(mac.payload == nil)
    }

    @Test("D.5.3 EMacKey from the mdoc side: SDeviceKey private, EReaderKey public")
    func eMacKeyMdocSide() throws {
        let establishment = try SessionEstablishment(encoded: AnnexD.bytes("session_establishment"))
        let key = try EMacKey.derive(
            privateKey: AnnexD.privateKey("sDeviceKey"),
            peerPublicKey: establishment.eReaderKey.value.publicKey(),
            sessionTranscriptBytes: AnnexD.transcript().taggedBytes)
        #expect(key.bytes == AnnexD.bytes("EMacKey"))
    }

    @Test("D.5.3 EMacKey from the reader side: EReaderKey private, the MSO deviceKey")
    func eMacKeyReaderSide() throws {
        let issuerSigned = try IssuerSigned(encoded: AnnexD.bytes("issuer_signed"))
        let deviceKey = try issuerSigned.mobileSecurityObjectBytes().value.deviceKeyInfo.deviceKey.publicKey()
        let key = try EMacKey.derive(
            privateKey: AnnexD.privateKey("eReaderKey"), peerPublicKey: deviceKey,
            sessionTranscriptBytes: AnnexD.transcript().taggedBytes)
        #expect(key.bytes == AnnexD.bytes("EMacKey"))
        let zab = try AnnexD.privateKey("eReaderKey").sharedSecret(with: deviceKey)
        #expect(zab.withUnsafeBytes { Array($0) } == AnnexD.bytes("emac_shared_secret_zab"))
    }

    @Test("D.5.3 DeviceAuthenticationBytes are built around the received transcript and DeviceNameSpacesBytes")
    func deviceAuthenticationBytes() throws {
        let deviceSigned = try DeviceSigned(encoded: AnnexD.bytes("device_signed"))
        for name in ["session_transcript_bytes", "session_transcript"] {
            let binding = try SessionTranscriptBinding(encoded: AnnexD.bytes(name))
            let bytes = binding.deviceAuthenticationBytes(docType: AnnexD.docType, deviceNameSpacesBytes: deviceSigned.nameSpaces)
            #expect(bytes == AnnexD.bytes("device_authentication_bytes"), "\(name)")
        }
    }

    @Test("D.5.3 the DeviceMac MAC_structure and tag: HMAC-SHA-256 with EMacKey")
    func deviceMac() throws {
        let deviceSigned = try DeviceSigned(encoded: AnnexD.bytes("device_signed"))
        guard case .deviceMac(let mac) = deviceSigned.deviceAuth else {
            Issue.record("the Annex D DeviceSigned must authenticate with a DeviceMac")
            return
        }
        let payload = AnnexD.bytes("device_authentication_bytes")
        #expect(mac.toBeMACed(detachedPayload: payload) == AnnexD.bytes("device_auth_mac_structure"))
        let key = SymmetricKey(bytes: AnnexD.bytes("EMacKey"))
        #expect(mac.isValidTag(key: key, detachedPayload: payload))
        #expect(HMACSHA256.authenticationCode(for: AnnexD.bytes("device_auth_mac_structure"), key: key) == AnnexD.bytes("device_mac_tag"))
        #expect(COSEMac0.authenticate(payload: payload, detached: true, key: key).encoded() == mac.encoded())

        var wrongKey = AnnexD.bytes("EMacKey")
        wrongKey[0] ^= 0x10  // dc -> cc
        #expect(!mac.isValidTag(key: SymmetricKey(bytes: wrongKey), detachedPayload: payload))
    }
}
