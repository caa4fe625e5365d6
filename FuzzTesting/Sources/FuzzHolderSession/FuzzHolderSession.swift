import Foundation
import FuzzSupport
import MdocCrypto
import MdocSession

/// The holder's state machine fed what a reader sends (ISO/IEC 18013-5 9.1.1, 8.3.3.1.1): up to
/// four length-prefixed messages, the first taken as SessionEstablishment; a request that asks
/// for consent is approved in full, so the response is built too. The holder presents the demo
/// mDL with the Annex D EDeviceKey and trusts the Annex D reader root.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHolderSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let messages = FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 4)
    guard var session = try? HolderSession(
        credentials: [DemoCredential.mdl], readerTrustAnchors: [AnnexD.readerRoot], eDeviceKey: AnnexD.eDeviceKey,
        bleOptions: .offering(peripheralServerMode: true, centralClientMode: true), now: { AnnexD.time })
    else { fatalError("the holder session cannot start") }
    for message in messages where !session.isFinished {
        if case .askConsent(let request) = session.receive(message) {
            _ = session.decide(request.allAvailable)
        }
    }
    _ = session.transportEnded()
    return 0
}
