import MdocCBOR
import MdocCOSE
import MdocCrypto

/// The Ident characteristic value of mdoc central client mode (ISO/IEC 18013-5 8.3.3.1.1.4):
///
///     Ident = HKDF-SHA-256(IKM: EDeviceKeyBytes, salt: empty, info: "BLEIdent", L: 16)
///
/// The input keying material is the full encoding of EDeviceKeyBytes, `#6.24(bstr .cbor
/// EDeviceKey)`: the tag-24 item exactly as the engagement's Security array carries it. The
/// reader serves the value; the mdoc reads and compares it, so it knows it talks to the reader
/// that scanned its engagement.
public enum BLEIdent {
    /// The HKDF `info`.
    public static let info: [UInt8] = Array("BLEIdent".utf8)
    /// The Ident length in bytes.
    public static let byteCount = 16

    /// The Ident for an engagement's EDeviceKeyBytes, kept with their received bytes.
    /// Throws only when the crypto library fails.
    public static func compute(eDeviceKeyBytes: EmbeddedCBOR<COSEKey>) throws(CryptoError) -> [UInt8] {
        try HKDF.deriveKey(
            inputKeyMaterial: eDeviceKeyBytes.cbor.encoded(), salt: [], info: info, outputByteCount: byteCount
        ).bytes
    }
}
