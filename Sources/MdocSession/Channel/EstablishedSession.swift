import MdocCBOR
import MdocModel

/// What both sides hold once SessionEstablishment was exchanged (ISO/IEC 18013-5 9.1.1.4,
/// 9.1.1.5): the transcript the session is bound to and the encryption keyed from it. The
/// SessionData framing and the message protection of the holder and of the reader are this one
/// type, so the two sides read, decrypt and seal messages the same way.
struct EstablishedSession: Sendable {
    /// The transcript both sides agreed on, as exact bytes.
    let transcript: SessionTranscriptBinding
    /// Our side's message protection, with both counters.
    private(set) var encryption: SessionEncryption

    /// The session of `role`, keyed with `keys` derived from `transcript`.
    init(role: SessionRole, keys: SessionKeys, transcript: SessionTranscriptBinding) {
        self.transcript = transcript
        self.encryption = SessionEncryption(role: role, keys: keys)
    }

    /// The peer's message decoded as SessionData (9.1.1.4); a message that is not SessionData is
    /// `SessionError.Code.messageDecodingFailed` naming who sent it.
    func sessionData(_ message: [UInt8]) throws(SessionError) -> SessionData {
        do {
            return try SessionData(encoded: message)
        } catch {
            throw SessionError(.messageDecodingFailed, "the message from the \(peerName) is not SessionData: \(error)")
        }
    }

    /// The plaintext of the peer's next encrypted message (9.1.1.5): its counter must be the
    /// next one, or this fails with `SessionError.Code.decryptionFailed`.
    mutating func open(_ sealed: [UInt8]) throws(SessionError) -> [UInt8] {
        try encryption.decrypt(sealed)
    }

    /// `plaintext` encrypted with our next counter, framed as `SessionData = {"data": bstr}`.
    mutating func seal(_ plaintext: [UInt8]) throws(SessionError) -> [UInt8] {
        SessionData(data: try encryption.encrypt(plaintext)).encoded()
    }

    /// `plaintext` encrypted with our next counter and not framed: the `data` of
    /// SessionEstablishment (9.1.1.4), which carries the reader's first request.
    mutating func encrypt(_ plaintext: [UInt8]) throws(SessionError) -> [UInt8] {
        try encryption.encrypt(plaintext)
    }

    /// The peer, as messages name it: "reader" or "mdoc".
    var peerName: String {
        encryption.role == .mdoc ? "reader" : "mdoc"
    }
}
