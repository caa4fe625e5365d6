import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import Testing

@Suite("ISO/IEC 18013-5 Annex D.3: device engagement")
struct D3DeviceEngagementTests {
    @Test("D.3.1 QR DeviceEngagement decodes and re-encodes byte-exactly")
    func qrDeviceEngagement() throws {
        let bytes = AnnexD.bytes("device_engagement")
        let engagement = try DeviceEngagement(encoded: bytes)
        #expect(engagement.encoded() == bytes)
        #expect(engagement.version == "1.0")
        #expect(engagement.security.cipherSuiteIdentifier == .suite1)
        #expect(engagement.security.eDeviceKeyBytes.cbor.encoded() == AnnexD.bytes("e_device_key_bytes"))
    }

    @Test("D.3.1 the NFC DeviceEngagement of the session transcript decodes and re-encodes byte-exactly")
    func nfcDeviceEngagement() throws {
        let bytes = AnnexD.bytes("device_engagement_nfc")
        let engagement = try DeviceEngagement(encoded: bytes)
        #expect(engagement.encoded() == bytes)
        #expect(engagement.security.eDeviceKeyBytes.cbor.encoded() == AnnexD.bytes("e_device_key_bytes"))
    }

    @Test("D.3.1 Security carries EDeviceKey as a P-256 COSE_Key")
    func eDeviceKey() throws {
        for name in ["device_engagement", "device_engagement_nfc"] {
            let engagement = try DeviceEngagement(encoded: AnnexD.bytes(name))
            let key = engagement.security.eDeviceKeyBytes.value
            #expect(key.keyType == .ec2)
            #expect(key.curve == .p256)
            #expect(key.x == AnnexD.bytes("eDeviceKey_public_x"))
            #expect(key.y == AnnexD.bytes("eDeviceKey_public_y"))
            #expect(key.d == nil)
            #expect(try key.publicKey() == AnnexD.publicKey("eDeviceKey"))
            #expect(try AnnexD.privateKey("eDeviceKey").publicKey == key.publicKey())
        }
    }
}
