import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession

/// How a ``HolderDriver`` departs from the session ISO/IEC 18013-5 9.1.1.4 describes, on
/// purpose, to see what the mdoc reader does: each SessionData the holder sends with a
/// DeviceResponse may be rewritten before it goes over the link. Conformance tests of a reader
/// under test use it (a response whose ciphertext does not authenticate, or that was encrypted
/// with another key or counter than 9.1.1.5 gives); ``asBuilt`` is the session as the state
/// machine builds it.
package struct HolderScript: Sendable {
    /// A SessionData the session built to carry a DeviceResponse, with what a script needs to
    /// seal another in its place.
    package struct Response: Sendable {
        /// The SessionData as built.
        package var message: [UInt8]
        /// The transcript the session is bound to (9.1.5.1), from which, with EDeviceKey, the
        /// session keys come (9.1.1.5).
        package var sessionTranscript: SessionTranscriptBinding
        /// The message counter the response was encrypted with (9.1.1.5): 1 for the first.
        package var counter: UInt32

        /// A response built as `message`, encrypted with `counter` in the session of
        /// `sessionTranscript`.
        package init(message: [UInt8], sessionTranscript: SessionTranscriptBinding, counter: UInt32) {
            self.message = message
            self.sessionTranscript = sessionTranscript
            self.counter = counter
        }
    }

    /// The SessionData to send in place of each the session built to carry a DeviceResponse;
    /// it throws when it cannot make that one, and the session then ends as failed with its
    /// error, nothing sent in the response's place: a departure that did not happen is never
    /// passed off as one that did.
    package var response: @Sendable (Response) throws(SessionError) -> [UInt8]

    /// A script rewriting each SessionData that carries a response with `response`.
    package init(response: @escaping @Sendable (Response) throws(SessionError) -> [UInt8] = { $0.message }) {
        self.response = response
    }

    /// The session as built: nothing rewritten.
    package static let asBuilt = HolderScript()

    /// A script that opens each response the session built, with the session keys derived
    /// again from `eDeviceKey`, the EReaderKey and the SessionTranscript (9.1.1.5), and sends in
    /// its place the SessionData of what `seal` makes of its DeviceResponse, the keys and the
    /// counter it was encrypted with. Throws, so that the session fails, when the response
    /// cannot be opened again (it can when the session was made with `eDeviceKey`) or `seal`
    /// throws.
    package static func resealing(
        eDeviceKey: PrivateKey, seal: @escaping @Sendable ([UInt8], SessionKeys, UInt32) throws(SessionError) -> [UInt8]
    ) -> HolderScript {
        HolderScript(response: { (response) throws(SessionError) in
            let transcript = response.sessionTranscript
            guard let eReaderKeyBytes = transcript.transcript.eReaderKeyBytes else {
                throw SessionError(.messageConstructionFailed, "the SessionTranscript holds no EReaderKey to derive the session keys again from")
            }
            let keys: SessionKeys
            let sealed: [UInt8]?
            do {
                keys = try SessionKeys(
                    privateKey: eDeviceKey, peerPublicKey: try eReaderKeyBytes.value.publicKey(), sessionTranscriptBytes: transcript.taggedBytes)
                sealed = try SessionData(encoded: response.message).data
            } catch {
                throw SessionError(.messageConstructionFailed, "the response built could not be opened again to rewrite it: \(error)")
            }
            guard let sealed else {
                throw SessionError(.messageConstructionFailed, "the SessionData built carries no response to rewrite")
            }
            var opening = SessionEncryption(role: .reader, keys: keys, sendCounter: 1, receiveCounter: response.counter)
            return SessionData(data: try seal(try opening.decrypt(sealed), keys, response.counter)).encoded()
        })
    }

    /// A script sending `deviceResponse`, encrypted as the session encrypts (SKDevice and the
    /// message's own counter, 9.1.1.5), in place of every DeviceResponse a session with
    /// `eDeviceKey` builds: test material for a reader (`mdoc-holder present
    /// --response-override`). The bytes are sent as given, whether or not they are a
    /// DeviceResponse.
    package static func replacingResponses(with deviceResponse: [UInt8], eDeviceKey: PrivateKey) -> HolderScript {
        resealing(eDeviceKey: eDeviceKey) { (_, keys, counter) throws(SessionError) in
            var encryption = SessionEncryption(role: .mdoc, keys: keys, sendCounter: counter, receiveCounter: 1)
            return try encryption.encrypt(deviceResponse)
        }
    }
}
