import MdocNFC

/// An mdoc's NFC applications (`NFCCard`: the NDEF application of NFC engagement and the mdoc
/// data retrieval application, ISO/IEC 18013-5 8.2.2.1, 8.3.3.1.2) as a ``VirtualCard``: the
/// holder's side of a tap, through vpcd and pcscd, for tests and for vendors testing their
/// PC/SC reader software.
///
/// vpcd carries frames of at most ``VPICCFrame/maximumPayloadLength`` octets, so the data
/// retrieval application behind it advertises at most ``maximumCommandDataLength`` and
/// ``maximumResponseDataLength``.
public struct NFCVirtualCardHandler: VirtualCardHandler {
    /// The most command data bytes an extended command carries in one vpcd frame: the frame
    /// less the header, the three octets of Lc and the two of Le.
    public static let maximumCommandDataLength = VPICCFrame.maximumPayloadLength - 9
    /// The most response data bytes one vpcd frame carries beside the status word.
    public static let maximumResponseDataLength = VPICCFrame.maximumPayloadLength - 2
    /// The ATR the card answers with: a contactless ISO/IEC 14443-4 card without historical
    /// bytes, as PC/SC part 3 (3.1.3.2.3.2) makes it for one whose ATS gave none.
    public static let answerToReset: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]

    /// The card's applications.
    public let card: NFCCard

    /// The handler answering with `card`.
    public init(card: NFCCard) {
        self.card = card
    }

    /// `card`'s answer to `command`.
    public func respond(to command: [UInt8]) async -> [UInt8] {
        await card.respond(to: command)
    }

    /// Powering down is the field going off: the session of the data retrieval application ends.
    public func powerChanged(on: Bool) async {
        if !on { await card.fieldOff() }
    }

    /// A warm reset ends the selected application and its session.
    public func reset() async {
        await card.reset()
    }
}
