/// How a ``ReaderDriver`` departs from the session ISO/IEC 18013-5 9.1.1.4 describes, on
/// purpose, to see what the mdoc does: the SessionEstablishment it sends may be rewritten, and
/// once the response is in, one more message may be sent before the session ends. Conformance
/// tests of an mdoc under test use it (an altered ciphertext, a replayed message, EReaderKey on
/// another curve); ``asBuilt`` is the session as the state machine builds it.
package struct ReaderScript: Sendable {
    /// The SessionEstablishment to send in place of the one the session built.
    package var establishment: @Sendable ([UInt8]) -> [UInt8]
    /// The message to send after the first response, given the SessionEstablishment as sent;
    /// `nil` for none. The mdoc's answer to it is taken as any other message of the session.
    package var followUp: @Sendable ([UInt8]) -> [UInt8]?

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
