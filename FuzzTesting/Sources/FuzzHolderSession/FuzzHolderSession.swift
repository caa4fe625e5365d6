import Foundation
import FuzzSupport
import MdocCrypto
import MdocSession

/// The holder's state machine fed what a reader sends (ISO/IEC 18013-5 9.1.1, 8.3.3.1.1): up to
/// four length-prefixed messages, the first taken as SessionEstablishment; each request's reader
/// authentication is verified against the Annex D reader root, as the holder's default trust
/// does, and the request is approved in full, so the response is built too. The holder presents
/// the demo mDL with the Annex D EDeviceKey.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHolderSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let messages = FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 4)
    guard var session = try? HolderSession(
        credentials: [DemoCredential.mdl], eDeviceKey: AnnexD.eDeviceKey,
        bleOptions: .offering(peripheralServerMode: true, centralClientMode: true))
    else { fatalError("the holder session cannot start") }
    for message in messages where !session.isFinished {
        if case .requestReceived(let request) = session.receive(message) {
            for docRequest in request.deviceRequest.docRequests {
                _ = readerAuthentication.verify(docRequest, sessionTranscript: request.sessionTranscript, at: AnnexD.time)
            }
            _ = session.decide(.all(requestedIn: request.deviceRequest))
        }
    }
    _ = session.transportEnded()
    return 0
}

/// The holder's reader authentication, made once.
private let readerAuthentication = ReaderAuthenticationVerifier(trustAnchors: [AnnexD.readerRoot])
