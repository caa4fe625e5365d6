import MdocBLE
import MdocSession

/// What a holder's session came to: how it ended, in which mode, and what was released for each
/// request (ISO/IEC 18013-5 8.3.2.1.2).
public struct HolderSessionResult: Sendable {
    /// One request of the session and the elements released for it.
    public struct Disclosure: Sendable {
        /// The request as the holder was shown it.
        public var request: PresentationRequest
        /// What the holder released; the response holds the part of it the credentials have.
        public var released: ElementSelection

        /// A request and its answer.
        public init(request: PresentationRequest, released: ElementSelection) {
            self.request = request
            self.released = released
        }
    }

    /// How the session ended.
    public var end: LiveSessionEnd
    /// The mode the reader connected in; `nil` when none did.
    public var mode: MdocBLEMode?
    /// Each request answered, in order.
    public var disclosures: [Disclosure]
    /// Every message of the session in the order it went over the link, the status message
    /// that ended it included; empty when no reader connected.
    public var messages: [LinkMessage]
    /// The link's ATT_MTU when the session ended; `nil` when no reader connected.
    public var mtu: Int?
    /// The transcript the session was bound to; `nil` when no SessionEstablishment was taken.
    public var sessionTranscript: SessionTranscriptBinding?
    /// Whether the reader ended the link with the transport's own session termination (BLE
    /// State 0x02, ISO/IEC 18013-5 8.3.3.1.1.5), which 9.1.1.4 allows in place of status 20,
    /// rather than letting it drop.
    package var endedByTransportTermination = false

    /// A result.
    public init(
        end: LiveSessionEnd, mode: MdocBLEMode?, disclosures: [Disclosure], messages: [LinkMessage] = [], mtu: Int? = nil,
        sessionTranscript: SessionTranscriptBinding? = nil
    ) {
        self.end = end
        self.mode = mode
        self.disclosures = disclosures
        self.messages = messages
        self.mtu = mtu
        self.sessionTranscript = sessionTranscript
    }
}
