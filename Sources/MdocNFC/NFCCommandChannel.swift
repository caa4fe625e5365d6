/// What carries command APDUs to a card and brings back its responses: a PC/SC card
/// connection, a test's channel to a card in the same process, or any other reader. The
/// reader-side types of this module (``NDEFTagReader``, ``NFCDataTransferReader``) speak only
/// through it, so they do no I/O of their own.
public protocol NFCCommandChannel: Sendable {
    /// The most command data bytes one command may carry: 255
    /// (``CommandAPDU/maximumShortDataLength``) unless the reader handles extended APDUs.
    var maximumCommandDataLength: Int { get }
    /// The most response data bytes one response may carry: 256
    /// (``CommandAPDU/maximumShortExpectedLength``) unless the reader handles extended APDUs.
    var maximumResponseDataLength: Int { get }
    /// Sends `command` and returns the card's response. Throws
    /// `transmissionFailed` or `connectionLost` when the
    /// command could not be carried.
    func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU
}
