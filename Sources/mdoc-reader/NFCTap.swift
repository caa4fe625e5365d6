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

    /// A card tapped and engaged, still connected for NFC data retrieval.
    struct Tapped {
        /// What the engagement read.
        let engagement: NFCEngagement
        /// The PC/SC reader's name.
        let reader: String
        /// The card, its APDUs short unless the reader said it carries extended ones.
        let channel: PCSCCommandChannel
        /// What the reader says it carries in one APDU, when it says (PC/SC part 10).
        let maximumAPDUDataSize: Int?
        /// Where the APDUs are kept, for a capture.
        let recorder: TracingChannel.Recorder?
        let context: PCSCContext

        /// The channel for NFC data retrieval (8.3.3.1.2): extended APDUs when the reader says
        /// it carries them, or when it says nothing and carries an extended SELECT of the mdoc
        /// application (vpcd before 0.9 says nothing); short ones otherwise and with
        /// `shortAPDUs`.
        func retrievalChannel(shortAPDUs: Bool) async -> any NFCCommandChannel {
            guard !shortAPDUs else { return traced(PCSCCommandChannel(card: channel.card, extendedLength: false)) }
            if let maximumAPDUDataSize {
                return traced(PCSCCommandChannel(card: channel.card, extendedLength: maximumAPDUDataSize > CommandAPDU.maximumShortDataLength))
            }
            let extended = traced(PCSCCommandChannel(card: channel.card, extendedLength: true))
            let probe = CommandAPDU.select(application: NFCDataTransferReader.applicationIdentifier,
                                           expectedLength: CommandAPDU.maximumExtendedExpectedLength)
            let carried = (try? await extended.transmit(probe))?.statusWord == .success
            return carried ? extended : traced(PCSCCommandChannel(card: channel.card, extendedLength: false))
        }

        /// `channel`, its APDUs kept in ``recorder`` when there is one.
        func traced(_ channel: PCSCCommandChannel) -> any NFCCommandChannel {
            NFCTap.traced(channel, into: recorder)
        }

        /// Disconnects the card and lets PC/SC go.
        func close() async {
            try? await channel.card.disconnect()
            await context.release()
        }
    }

    /// Waits within `bound` for a card on the reader (and within `bound` again for a locked phone
    /// to open its NDEF application), then reads its engagement: static handover, or negotiated
    /// handover with `handoverRequest` when the card offers it. Short APDUs unless the reader
    /// says it carries extended ones and `shortAPDUs` is not set: an engagement's messages are
    /// small, and a reader of short APDUs only fails extended ones. The card stays connected
    /// until ``Tapped/close()``.
    func engage(
        handoverRequest: HandoverRequestMessage, within bound: Duration, shortAPDUs: Bool, recorder: TracingChannel.Recorder?
    ) async throws(ProgramFailure) -> Tapped {
        let context: PCSCContext
        do {
            context = try await PCSCContext.establish()
        } catch {
            throw ProgramFailure(.sessionFailed, "cannot use PC/SC: \(error)", hint: Self.hint(for: error))
        }
        ProgramOutput.standardError.writeProgressLine(
            "mdoc-reader: waiting for an mdoc to be tapped on \(readerName ?? "any reader") (NFC engagement)")
        let presence: PCSCContext.CardPresence
        let card: PCSCCard
        do {
            presence = try await context.waitForCard(in: readerName, within: bound)
        } catch {
            await context.release()
            throw ProgramFailure(.sessionFailed, "no mdoc was tapped: \(error)", hint: Self.hint(for: error))
        }
        do {
            card = try await context.connect(to: presence.reader)
        } catch {
            await context.release()
            throw ProgramFailure(.sessionFailed, "cannot connect to the card on \(presence.reader): \(error)")
        }
        // A reader whose driver cannot be asked is taken as saying nothing.
        let size = (try? await card.maximumAPDUDataSize()) ?? nil
        let channel = PCSCCommandChannel(card: card, extendedLength: !shortAPDUs && (size ?? 0) > CommandAPDU.maximumShortDataLength)
        let engagement: NFCEngagement
        do {
            // A locked phone answers 6A82 until it is unlocked: polled within the same bound.
            engagement = try await NDEFTagReader(channel: Self.traced(channel, into: recorder), selectTimeout: bound)
                .engage(handoverRequest: handoverRequest)
        } catch {
            try? await card.disconnect()
            await context.release()
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
        ProgramOutput.standardError.writeProgressLine(
            "mdoc-reader: engaged by NFC on \(presence.reader) (\(engagement.handoverRequest == nil ? "static" : "negotiated") handover)")
        return Tapped(
            engagement: engagement, reader: presence.reader, channel: channel, maximumAPDUDataSize: size, recorder: recorder,
            context: context)
    }

    /// `channel`, its APDUs kept in `recorder` when there is one.
    static func traced(_ channel: PCSCCommandChannel, into recorder: TracingChannel.Recorder?) -> any NFCCommandChannel {
        recorder.map { TracingChannel(channel, recorder: $0) } ?? channel
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
