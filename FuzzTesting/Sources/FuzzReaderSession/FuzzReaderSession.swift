import FuzzSupport
import MdocModel
import MdocSession

/// The reader's state machine fed what an mdoc sends (ISO/IEC 18013-5 9.1.1): a session with the
/// Annex D engagement and EReaderKey, started, then up to three length-prefixed messages. With
/// the Annex D keys a well-formed SessionData decrypts, so the response is verified too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReaderSession(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let messages = FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 3)
    var session = startedSession
    for message in messages where !session.isFinished {
        _ = session.receive(message)
    }
    _ = session.transportEnded()
    return 0
}

/// The session as it is once the request went out, made once: the session is a value, so each
/// input gets its own copy, without the key agreement and request encryption that starting
/// costs (none of which depends on the input).
private let startedSession: ReaderSession = {
    guard let engagement = AnnexD.transcript.transcript.deviceEngagementBytes,
          var session = try? ReaderSession(
              engagement: engagement, request: [RequestPreset.driving.docRequestSpec()], trustAnchors: [AnnexD.iaca],
              eReaderKey: AnnexD.eReaderKey, now: { AnnexD.time }),
          (try? session.start()) != nil
    else { fatalError("the reader session cannot start") }
    return session
}()
