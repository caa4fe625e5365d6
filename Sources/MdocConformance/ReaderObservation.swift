import MdocCBOR
import MdocModel
import MdocPresentation
import MdocSession

/// What the mdoc reader did in a session, as the holder saw it, in words for the reason of a
/// failed case: whether the holder's response went out, the status the reader ended the session
/// with, or how the session ended otherwise.
struct ReaderObservation: CustomStringConvertible {
    /// Whether the holder sent a DeviceResponse: a SessionData with `data` (what else the holder
    /// sends is a status alone, which ends the session).
    let responseSent: Bool
    /// Whether the reader sent anything: a SessionEstablishment at least.
    let readerSentMessage: Bool
    /// The status of the last message from the reader that carried one.
    let endStatus: SessionData.Status?
    let result: HolderSessionResult

    init(_ result: HolderSessionResult) {
        self.result = result
        responseSent = result.messages.contains { message in
            message.direction == .sent && (try? SessionData(encoded: message.bytes))?.data != nil
        }
        readerSentMessage = result.messages.contains { $0.direction == .received }
        endStatus = result.messages.filter { $0.direction == .received }
            .compactMap { try? SessionData(encoded: $0.bytes).status }.last
    }

    var description: String {
        if let endStatus {
            return "the reader ended the session with status \(endStatus)"
        }
        switch result.end {
        case .session(.transportEnded):
            return "the reader ended the link without a status"
        case .session(let outcome):
            return "\(outcome)"
        case .link(let error):
            return "\(error)"
        }
    }
}
