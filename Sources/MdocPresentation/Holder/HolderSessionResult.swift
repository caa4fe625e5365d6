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

    /// A result.
    public init(end: LiveSessionEnd, mode: MdocBLEMode?, disclosures: [Disclosure]) {
        self.end = end
        self.mode = mode
        self.disclosures = disclosures
    }
}
