import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

/// What the mdoc reader did in a session, as the holder saw it, in words for the reason of a
/// failed case: whether the holder's response went out, the status the reader ended the session
/// with, or how the session ended otherwise.
struct ReaderObservation: CustomStringConvertible {
    /// Whether the holder sent a DeviceResponse: a SessionData with `data`, under its tag or not
    /// (what else the holder sends is a status alone, which ends the session).
    let responseSent: Bool
    /// Whether the reader sent anything: a SessionEstablishment at least.
    let readerSentMessage: Bool
    /// Whether the reader's request broke 18013-5 before the holder could answer it: its chunks
    /// broke 8.3.3.1.1.6, or the message they made is not a SessionEstablishment the holder
    /// could decode and decrypt (9.1.1.4).
    let readerBrokeRequest: Bool
    /// The position in the session's messages of the SessionData of status 20 alone the holder
    /// sent to end the session (9.1.1.4), if it sent one.
    let holderTermination: Int?
    /// The status of the last message from the reader that carried one.
    let endStatus: SessionData.Status?
    let result: HolderSessionResult

    /// Whether the reader ended the link with the transport's own termination (BLE State 0x02).
    var endedByTransportTermination: Bool { result.endedByTransportTermination }

    init(_ result: HolderSessionResult) {
        self.result = result
        responseSent = result.messages.contains { message in
            guard message.direction == .sent, case .map(let map)? = try? CBOR.decode(message.bytes) else { return false }
            return map[text: "data"] != nil
        }
        readerSentMessage = result.messages.contains { $0.direction == .received }
        holderTermination = result.messages.firstIndex {
            $0.direction == .sent && (try? SessionData(encoded: $0.bytes)) == SessionData(status: .sessionTermination)
        }
        switch result.end {
        case .link(let error):
            readerBrokeRequest = !responseSent && error.code == .brokenChunking
        case .session(.failed(let error)):
            readerBrokeRequest = !responseSent && readerSentMessage
                && (error.code == .messageDecodingFailed || error.code == .decryptionFailed)
        case .session:
            readerBrokeRequest = false
        }
        endStatus = result.messages.filter { $0.direction == .received }
            .compactMap { try? SessionData(encoded: $0.bytes).status }.last
    }

    /// Whether the reader ended the session normally after the response (9.1.1.4): with status
    /// 20, or with the transport's own termination and no status.
    var endedSession: Bool {
        endStatus == .sessionTermination || (endStatus == nil && endedByTransportTermination)
    }

    var description: String {
        if let endStatus {
            return "the reader ended the session with status \(endStatus)"
        }
        switch result.end {
        case .session(.transportEnded) where endedByTransportTermination:
            return "the reader ended the session with BLE State 0x02 (end) and no status"
        case .session(.transportEnded):
            return "the reader ended the link without a status"
        case .session(let outcome):
            return "\(outcome)"
        case .link(let error):
            return "\(error)"
        }
    }
}
