import MdocNFC

/// A card reached through PC/SC as the command channel of an NFC reader (ISO/IEC 18013-5
/// 8.2.2.1 engagement, 8.3.3.1.2 data retrieval): `NDEFTagReader` and `NFCDataTransferReader`
/// send their APDUs through it.
///
/// Whether extended APDUs cross the reader is the reader's hardware's to say (docs/nfc.md): with
/// `extendedLength` the channel offers what pcsc-lite carries, without it short APDUs only.
public struct PCSCCommandChannel: NFCCommandChannel {
    /// The connection to the card.
    public let card: PCSCCard
    /// The most command data bytes one command carries: 255, or 65535 with extended APDUs.
    public let maximumCommandDataLength: Int
    /// The most response data bytes one response carries: 256, or 65536 with extended APDUs.
    public let maximumResponseDataLength: Int

    /// The channel of `card`, with extended APDUs (ISO/IEC 7816-4 5.1) when `extendedLength`.
    public init(card: PCSCCard, extendedLength: Bool) {
        self.card = card
        maximumCommandDataLength = extendedLength ? CommandAPDU.maximumExtendedDataLength : CommandAPDU.maximumShortDataLength
        maximumResponseDataLength = extendedLength ? CommandAPDU.maximumExtendedExpectedLength : CommandAPDU.maximumShortExpectedLength
    }

    /// Sends `command` with `SCardTransmit`. A card that left, or a pcscd that stopped, is
    /// `connectionLost`; any other failure to carry the command `transmissionFailed`; an
    /// answer that is no response APDU the parser's error.
    public func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        let answer: [UInt8]
        do {
            answer = try await card.transmit(command.bytes)
        } catch {
            switch error.code {
            case .cardRemoved, .noService, .readerUnavailable, .noCard:
                throw NFCError(.connectionLost, "the card is gone: \(error)", context: nil)
            default:
                throw NFCError(.transmissionFailed, "the command could not be carried: \(error)", context: nil)
            }
        }
        return try ResponseAPDU(bytes: answer)
    }
}
