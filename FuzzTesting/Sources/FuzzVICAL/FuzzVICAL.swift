import FuzzSupport
import MdocCBOR
import MdocCrypto
import MdocModel

/// A signed VICAL (ISO/IEC 18013-5 Annex C.1.7) decoded within its limits, each entry's
/// certificate and the signer's `x5chain` parsed and each entry's restated fields compared with
/// its certificate; then the input as a bare VICAL, written back, which must read again to the
/// same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVICAL(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let signed = try? SignedVICAL(encoded: bytes) {
        for info in signed.vical.certificateInfos {
            guard let certificate = try? Certificate(derEncoded: info.certificate) else { continue }
            _ = certificate.serialNumberBytes == info.serialNumber
            _ = certificate.subjectKeyIdentifier == info.ski
            _ = info.issuer.map { $0 == certificate.issuerNameDER }
            _ = info.subject.map { $0 == certificate.subjectNameDER }
        }
        _ = signed.message.x5chain.compactMap { try? Certificate(derEncoded: $0) }
    }
    if let vical = try? VICAL(encoded: CBORBytes(bytes), limits: SignedVICAL.limits) {
        let encoded = vical.cbor.encoded()
        guard let again = try? VICAL(encoded: CBORBytes(encoded), limits: SignedVICAL.limits), again.cbor.encoded() == encoded else {
            fatalError("a VICAL written back does not read again to the same bytes")
        }
    }
    return 0
}
