import FuzzSupport
import MdocModel
import MdocSession

/// A DeviceRequest as the holder decodes it (ISO/IEC 18013-5 8.3.2.1.2.1), with reader
/// authentication of each DocRequest verified against the Annex D reader root and transcript
/// (9.1.4).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let request = try? DeviceRequest(encoded: FuzzInput.bytes(data, size)) else { return 0 }
    let verifier = ReaderAuthenticationVerifier(trustAnchors: [AnnexD.readerRoot])
    for docRequest in request.docRequests {
        _ = docRequest.itemsRequest.value.docType
        if docRequest.readerAuth != nil {
            _ = verifier.verify(docRequest, sessionTranscript: AnnexD.transcript, at: AnnexD.time)
        }
    }
    return 0
}
