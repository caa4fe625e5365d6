import MdocCBOR
import MdocCrypto

/// Bytes from hex text written in a test, spaces allowed (empty when the text is not hex, which
/// the comparisons that use it then reveal).
func hex(_ text: String) -> [UInt8] {
    Hex.decode(String(text.filter { !$0.isWhitespace })) ?? []
}

/// The public key of an Annex D certificate (DS or reader).
func annexDCertificateKey(_ certificate: [UInt8]) throws -> PublicKey {
    try Certificate(derEncoded: certificate).publicKey
}

/// A copy of `bytes` with one bit of byte `index` flipped.
func flippingBit(_ bytes: [UInt8], at index: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= 0x01
    return copy
}

/// The entries of a map literal (`headerMap([33: ...])`), in the order written.
func headerMap(_ item: CBOR) -> CBORMap {
    item.mapValue ?? CBORMap()
}
