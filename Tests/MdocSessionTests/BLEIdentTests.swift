import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTestSupport
import Testing

@Suite("BLEIdent (ISO/IEC 18013-5 8.3.3.1.1.4; notes/ble.md 1.6)")
struct BLEIdentTests {
    /// HKDF-SHA-256 of the Annex D EDeviceKeyBytes (the full tag-24 item), empty salt, info
    /// "BLEIdent", 16 bytes, computed with Python's `hmac` module as an independent
    /// implementation of RFC 5869.
    static let annexDIdent = "8da0b7a85919f05673054ea996bbd124"

    @Test("the Ident of the Annex D EDeviceKeyBytes matches an independent computation")
    func annexD() throws {
        let tagged = Vectors.annexD("e_device_key_bytes")
        let eDeviceKeyBytes = try EmbeddedCBOR<COSEKey>(cbor: CBOR.decode(tagged), at: .root)
        let ident = try BLEIdent.compute(eDeviceKeyBytes: eDeviceKeyBytes)
        #expect(ident.count == BLEIdent.byteCount)
        #expect(Hex.encode(ident) == Self.annexDIdent)
    }

    @Test("the input keying material is the tag-24 item, not only the COSE_Key inside it")
    func taggedInput() throws {
        let tagged = Vectors.annexD("e_device_key_bytes")
        let eDeviceKeyBytes = try EmbeddedCBOR<COSEKey>(cbor: CBOR.decode(tagged), at: .root)
        let overContent = try HKDF.deriveKey(
            inputKeyMaterial: Array(eDeviceKeyBytes.bytes), salt: [], info: BLEIdent.info, outputByteCount: BLEIdent.byteCount)
        #expect(try BLEIdent.compute(eDeviceKeyBytes: eDeviceKeyBytes) != overContent.bytes)
    }

    @Test("different ephemeral keys give different Idents")
    func perKey() throws {
        let first = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey))
        let second = EmbeddedCBOR(COSEKey(publicKey: try PrivateKey(generating: .p256).publicKey))
        #expect(try BLEIdent.compute(eDeviceKeyBytes: first) != BLEIdent.compute(eDeviceKeyBytes: second))
    }
}
