import FuzzSupport
import MdocSession

/// DeviceResponse verification as the reader runs it (ISO/IEC 18013-5 9.3): issuer chain, MSO,
/// digests, device authentication with the Annex D transcript and EReaderKey, into a report.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let verifier = DeviceResponseVerifier(trustAnchors: [AnnexD.iaca], sessionTranscript: AnnexD.transcript, readerKey: AnnexD.eReaderKey)
    if let report = try? verifier.verify(FuzzInput.bytes(data, size), at: AnnexD.time) {
        _ = report.failureSummary
    }
    return 0
}
