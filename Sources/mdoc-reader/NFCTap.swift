import ArgumentParser
import MdocFiles
import MdocNFC
import MdocPCSC
import MdocTerminal
import MdocText

/// `--engagement nfc[:READER]`: engagement by tap through PC/SC (ISO/IEC 18013-5 8.2.2.1),
/// on the named reader or the first one a card (a phone) shows up on.
struct NFCTap: ExpressibleByArgument {
    /// The PC/SC reader's name; `nil` for the first reader a card comes to.
    let readerName: String?

    /// `nfc` or `nfc:READER-NAME`.
    init?(argument: String) {
        if argument == "nfc" {
            readerName = nil
        } else if argument.hasPrefix("nfc:"), argument.count > 4 {
            readerName = String(argument.dropFirst(4))
        } else {
            return nil
        }
    }

    /// Waits within `bound` for a card on the reader (and within `bound` again for a locked phone
    /// to open its NDEF application), then reads its engagement: static
    /// handover, or negotiated handover with `handoverRequest` when the card offers it. Short
    /// APDUs unless the reader says it carries extended ones and `shortAPDUs` is not set: an
    /// engagement's messages are small, and a reader of short APDUs only fails extended ones.
    /// The card is left powered, for a session over BLE.
    func engage(
        handoverRequest: HandoverRequestMessage, within bound: Duration, shortAPDUs: Bool
    ) async throws(ProgramFailure) -> NFCEngagement {
        let context: PCSCContext
        do {
            context = try await PCSCContext.establish()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot use PC/SC: \(error)", hint: Self.hint(for: error))
        }
        let result: Result<NFCEngagement, ProgramFailure>
        do {
            result = .success(try await engage(in: context, handoverRequest: handoverRequest, within: bound, shortAPDUs: shortAPDUs))
        } catch {
            result = .failure(error)
        }
        await context.release()
        return try result.get()
    }

    /// ``engage(handoverRequest:within:shortAPDUs:)`` in `context`.
    private func engage(
        in context: PCSCContext, handoverRequest: HandoverRequestMessage, within bound: Duration, shortAPDUs: Bool
    ) async throws(ProgramFailure) -> NFCEngagement {
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: waiting for an mdoc to be tapped on \(readerName ?? "any reader") (NFC engagement)")
        let presence: PCSCContext.CardPresence
        do {
            presence = try await context.waitForCard(in: readerName, within: bound)
        } catch {
            throw ProgramFailure(.sessionFailed, "no mdoc was tapped: \(error)", hint: Self.hint(for: error))
        }
        let card: PCSCCard
        let extended: Bool
        do {
            card = try await context.connect(to: presence.reader)
            let size = try await card.maximumAPDUDataSize()
            extended = !shortAPDUs && (size ?? 0) > CommandAPDU.maximumShortDataLength
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot connect to the card on \(presence.reader): \(error)")
        }
        let engagement: NFCEngagement
        do {
            // A locked phone answers 6A82 until it is unlocked: polled within the same bound.
            engagement = try await NDEFTagReader(channel: PCSCCommandChannel(card: card, extendedLength: extended), selectTimeout: bound)
                .engage(handoverRequest: handoverRequest)
        } catch {
            try? await card.disconnect()
            // A card that went, stopped answering or stayed locked is a failed session; one that
            // answered with something else, a malformed engagement.
            let status: ExitStatus =
                switch error.code {
                case .timedOut, .connectionLost, .transmissionFailed, .cancelled: .sessionFailed
                default: .malformedInput
                }
            throw ProgramFailure(
                status, "NFC engagement on \(presence.reader) failed: \(error)",
                hint: error.code == .timedOut ? "a locked phone answers 6A82 until it is unlocked: unlock it and tap again" : nil)
        }
        try? await card.disconnect()
        ProgramOutput.standardError.writeLine(
            "mdoc-reader: engaged by NFC on \(presence.reader) (\(engagement.handoverRequest == nil ? "static" : "negotiated") handover)")
        return engagement
    }

    /// What to do about a PC/SC failure a user can mend.
    private static func hint(for error: PCSCError) -> TerminalText? {
        switch error.code {
        case .noService: "start pcscd (`systemctl start pcscd.socket`), or install it: `apt-get install pcscd`"
        case .noReader: "plug in an NFC reader (docs/nfc.md says which carry extended APDUs)"
        case .unknownReader: "`pcsc_scan` lists the readers' names"
        default: nil
        }
    }
}
