/// How a ``ReaderDriver`` departs from the session ISO/IEC 18013-5 9.1.1.4 describes, on
/// purpose, to see what the mdoc does: the SessionEstablishment it sends may be rewritten, once
/// the response is in one more message may be sent before the session ends, and the session may
/// end with status 20 alone or State 0x02 alone, the mdoc left to close the channel. Conformance
/// tests of an mdoc under test use it (an altered ciphertext, a replayed message, EReaderKey on
/// another curve); ``asBuilt`` is the session as the state machine builds it.
package struct ReaderScript: Sendable {
    /// The SessionEstablishment to send in place of the one the session built.
    package var establishment: @Sendable ([UInt8]) -> [UInt8]
    /// The message to send after the first response, given the SessionEstablishment as sent;
    /// `nil` for none. The mdoc's answer to it is taken as any other message of the session.
    package var followUp: @Sendable ([UInt8]) -> [UInt8]?
    /// How the reader ends the session once the response is in when it leaves the channel for
    /// the mdoc to close (9.1.1.4: termination closes it), waiting for that at most
    /// ``SessionTimeouts/idle``; `nil`, it ends the session as ``ReaderDriver/termination`` says
    /// and closes the channel itself.
    package var terminationLeavingChannel: Termination?

    /// One of the two ways to terminate a session (9.1.1.4) on its own.
    package enum Termination: Sendable, Hashable {
        /// SessionData of status 20 alone.
        case statusOnly
        /// The transport's termination alone: BLE State 0x02 (8.3.3.1.1.5), through a
        /// transport that can send it and keep the link (`MdocStateEndSignalling`).
        case stateOnly
    }

    /// A script rewriting the SessionEstablishment with `establishment` and sending what
    /// `followUp` gives after the response.
    package init(
        establishment: @escaping @Sendable ([UInt8]) -> [UInt8] = { $0 }, followUp: @escaping @Sendable ([UInt8]) -> [UInt8]? = { _ in nil }
    ) {
        self.establishment = establishment
        self.followUp = followUp
    }

    /// The session as built: nothing rewritten, nothing added.
    package static let asBuilt = ReaderScript()
}
