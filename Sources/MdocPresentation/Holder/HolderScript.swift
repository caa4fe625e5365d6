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

    /// The SessionData to send in place of each the session built to carry a DeviceResponse.
    package var response: @Sendable (Response) -> [UInt8]

    /// A script rewriting each SessionData that carries a response with `response`.
    package init(response: @escaping @Sendable (Response) -> [UInt8] = { $0.message }) {
        self.response = response
    }

    /// The session as built: nothing rewritten.
    package static let asBuilt = HolderScript()
}
