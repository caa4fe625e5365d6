/// A card that answers a reader's APDUs for ISO/IEC 18013-5 NFC engagement and NFC data
/// retrieval: it routes each command to the NDEF application (``NDEFTagApplication``, AID
/// `D2760000850101`) or the mdoc application (``NFCDataTransferApplication``, AID
/// `A0000002480400`), whichever the reader selected last (ISO/IEC 7816-4 11.2.2).
///
/// ``respond(to:)->[UInt8]`` is what a virtual-card connection calls: raw command bytes in,
/// raw response bytes out, never throwing. Bytes that are not a command APDU get `6700`, a
/// class it does not serve `6E00` (`6881` for a logical channel, `6882` for secure messaging),
/// an unknown AID `6A82`, a command before any application was selected `6985`. Commands are
/// to be sent one at a time, each after the previous one's response, as a card connection does.
public actor NFCCard {
    private enum Application {
        case ndef
        case dataTransfer
    }

    /// The NDEF application, when the card offers NFC engagement.
    public nonisolated let ndefApplication: NDEFTagApplication?
    /// The mdoc application, when the card offers NFC data retrieval.
    public nonisolated let dataTransferApplication: NFCDataTransferApplication?
    private var selected: Application?

    /// A card with either application or both.
    public init(ndefApplication: NDEFTagApplication?, dataTransferApplication: NFCDataTransferApplication?) {
        self.ndefApplication = ndefApplication
        self.dataTransferApplication = dataTransferApplication
    }

    /// The response bytes (data and status word) to the command bytes `command`.
    public func respond(to command: [UInt8]) async -> [UInt8] {
        guard let parsed = try? CommandAPDU(bytes: command) else {
            return ResponseAPDU(statusWord: .wrongLength).bytes
        }
        return await respond(to: parsed).bytes
    }

    /// The response to `command`.
    public func respond(to command: CommandAPDU) async -> ResponseAPDU {
        guard command.cla != 0xFF else { return ResponseAPDU(statusWord: .classNotSupported) }
        guard command.cla & 0x80 == 0 else { return ResponseAPDU(statusWord: .classNotSupported) }
        guard command.cla & 0x03 == 0 else { return ResponseAPDU(statusWord: .logicalChannelNotSupported) }
        guard command.cla & 0x0C == 0 else { return ResponseAPDU(statusWord: .secureMessagingNotSupported) }
        if command.ins == CommandAPDU.Instruction.select, command.p1 == 0x04 {
            return await selectApplication(command)
        }
        switch selected {
        case .ndef?:
            guard let ndefApplication else { return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied) }
            return await ndefApplication.respond(to: command)
        case .dataTransfer?:
            guard let dataTransferApplication else { return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied) }
            return await dataTransferApplication.respond(to: command)
        case nil:
            return ResponseAPDU(statusWord: .conditionsOfUseNotSatisfied)
        }
    }

    /// SELECT by AID: the application is selected and starts over; an unknown AID leaves the
    /// selection as it was.
    private func selectApplication(_ command: CommandAPDU) async -> ResponseAPDU {
        guard command.cla == 0x00 else { return ResponseAPDU(statusWord: .commandChainingNotSupported) }
        guard command.p2 & 0xF3 == 0 else { return ResponseAPDU(statusWord: .incorrectParameters) }
        if command.data == NDEFTagApplication.applicationIdentifier, let ndefApplication {
            if selected == .dataTransfer {
                await dataTransferApplication?.end(NFCError(.connectionLost, "the reader selected the NDEF application"))
            }
            selected = .ndef
            await ndefApplication.select()
            return ResponseAPDU(statusWord: .success)
        }
        if command.data == NFCDataTransferReader.applicationIdentifier, let dataTransferApplication {
            selected = .dataTransfer
            await dataTransferApplication.select()
            return ResponseAPDU(statusWord: .success)
        }
        return ResponseAPDU(statusWord: .fileOrApplicationNotFound)
    }

    /// The field dropped (power off): nothing is selected, the NDEF application starts over and
    /// the mdoc application's session ends.
    public func fieldOff() async {
        await end(NFCError(.connectionLost, "the NFC field dropped"))
    }

    /// The card was reset: as ``fieldOff()``.
    public func reset() async {
        await end(NFCError(.connectionLost, "the card was reset"))
    }

    private func end(_ error: NFCError) async {
        selected = nil
        await ndefApplication?.select()
        await dataTransferApplication?.end(error)
    }
}
