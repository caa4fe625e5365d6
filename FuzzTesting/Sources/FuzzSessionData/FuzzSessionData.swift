import FuzzSupport
import MdocModel
import MdocSession

/// Session encryption (ISO/IEC 18013-5 9.1.1): the input as a SessionEstablishment that the mdoc
/// decrypts with SKReader into a DeviceRequest, and as a SessionData that the reader decrypts
/// with SKDevice into a DeviceResponse, both with the Annex D session keys.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionData(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let establishment = try? SessionEstablishment(encoded: bytes) {
        _ = try? establishment.eReaderKey.value.publicKey()
        var mdoc = SessionEncryption(role: .mdoc, keys: AnnexD.sessionKeys)
        if let request = try? mdoc.decrypt(establishment.data) {
            _ = try? DeviceRequest(encoded: request)
        }
    }
    if let sessionData = try? SessionData(encoded: bytes), let ciphertext = sessionData.data {
        var reader = SessionEncryption(role: .reader, keys: AnnexD.sessionKeys)
        if let response = try? reader.decrypt(ciphertext) {
            _ = try? DeviceResponse(encoded: response)
        }
    }
    return 0
}
