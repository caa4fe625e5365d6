import MdocModel

/// What a SessionData from the peer carries (ISO/IEC 18013-5 9.1.1.4, Table 20).
enum SessionDataContent: Sendable {
    /// A status and no data: the peer ends the session.
    case status(SessionData.Status)
    /// Encrypted data, with the status the peer sent beside it, if any.
    case data([UInt8], status: SessionData.Status?)
}

/// A state of an established session that takes SessionData from the peer: the holder waiting
/// for a request or for the holder's decision, the reader waiting for a response or idle
/// (ISO/IEC 18013-5 9.1.1.4). The framing rules are the same for both sides and written once
/// here; what a state does with the content is its own.
protocol AcceptsSessionData {
    /// The session the message belongs to.
    var session: EstablishedSession { get }
}

extension AcceptsSessionData {
    /// The content of the peer's `message`. A message that is not SessionData fails with
    /// `SessionError.Code.messageDecodingFailed` (status 11), one with neither data nor status
    /// with `SessionError.Code.unexpectedMessage` (status 20).
    func content(of message: [UInt8]) throws(SessionError) -> SessionDataContent {
        let sessionData = try session.sessionData(message)
        if let data = sessionData.data {
            return .data(data, status: sessionData.status)
        }
        guard let status = sessionData.status else {
            throw SessionError(.unexpectedMessage, "the \(session.peerName) sent SessionData with neither data nor status")
        }
        return .status(status)
    }
}
