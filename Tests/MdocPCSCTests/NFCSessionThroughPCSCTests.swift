import MdocCBOR
import MdocModel
import MdocNFC
import MdocPCSC
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import NIOConcurrencyHelpers
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whole sessions over NFC through the real pcscd and vpcd (ISO/IEC 18013-5 8.2.2.1 static
/// handover, 8.3.3.1.2 data retrieval): the holder is a virtual card whose NDEF application
/// holds a Handover Select and whose data retrieval application answers with a HolderSession;
/// the reader reads the engagement and exchanges the messages through PC/SC. In the serialized
/// suite of the daemon tests: one pcscd at a time per process.
extension PCSCDaemonTests {
    /// The holder's side: its card, and the task that answers the reader's messages until the
    /// session ends, approving every element asked for.
    struct NFCHolder {
        let card: NFCCard
        let handoverSelect: HandoverSelectMessage
        let answering: Task<SessionOutcome?, any Error>

        init() throws {
            let credentials = [try DemoMaterial.mDL()]
            var session = try HolderSession(
                credentials: credentials, bleOptions: .offering(peripheralServerMode: true, centralClientMode: false))
            let retrieval = NFCDataTransferApplication(
                maximumCommandDataLength: NFCVirtualCardHandler.maximumCommandDataLength,
                maximumResponseDataLength: NFCVirtualCardHandler.maximumResponseDataLength)
            let select = HandoverSelectMessage(
                deviceEngagement: Array(session.deviceEngagement.bytes), carriers: [.nfc(retrieval.carrier)])
            try session.engaged(through: select.handover(request: nil))
            handoverSelect = select
            card = NFCCard(ndefApplication: NDEFTagApplication(staticHandover: select), dataTransferApplication: retrieval)
            answering = Task {
                while true {
                    var action = session.receive(try await retrieval.receive())
                    if case .requestReceived(let request) = action {
                        let question = PresentationRequest(
                            merging: request, identities: request.deviceRequest.docRequests.map { _ in .anonymous },
                            credentials: credentials)
                        action = session.decide(question.allAvailable)
                    }
                    switch action {
                    case .send(let message): try await retrieval.send(message)
                    case .sendAndFinish(let message, let outcome):
                        try await retrieval.send(message)
                        return outcome
                    case .finished(let outcome): return outcome
                    case .requestReceived: return nil
                    }
                }
            }
        }
    }

    /// Engages by tap and reads age_over_18 over NFC through pcscd, with extended APDUs or short
    /// ones only; the report of the reader, its SessionTranscript, and how many APDUs went.
    static func readOverNFC(extendedLength: Bool) async throws -> (VerificationReport, SessionTranscriptBinding, HandoverSelectMessage, Int) {
        let daemon = try await VirtualReaderDaemon()
        defer { daemon.stop() }
        let holder = try NFCHolder()
        let card = Task { try await VirtualCard.run(daemon.address, atr: NFCVirtualCardHandler.answerToReset, handler: NFCVirtualCardHandler(card: holder.card)) }
        defer {
            card.cancel()
            holder.answering.cancel()
        }
        let context = try await PCSCContext.establish()
        // Released before this daemon stops, so that nothing of this test reaches the next
        // test's pcscd.
        do {
            let result = try await readOverNFC(context: context, holder: holder, extendedLength: extendedLength)
            await context.release()
            return result
        } catch {
            await context.release()
            throw error
        }
    }

    /// The reading of ``readOverNFC(extendedLength:)`` through `context`.
    private static func readOverNFC(
        context: PCSCContext, holder: NFCHolder, extendedLength: Bool
    ) async throws -> (VerificationReport, SessionTranscriptBinding, HandoverSelectMessage, Int) {
        let presence = try await context.waitForCard(in: reader, within: arrivalBound)
        let channel = CountingChannel(PCSCCommandChannel(card: try await context.connect(to: presence.reader), extendedLength: extendedLength))

        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: nil)
        let tapped = engagement.handoverSelect
        var session = try ReaderSession(
            engagement: try EmbeddedCBOR<DeviceEngagement>(bytes: tapped.deviceEngagement), handover: engagement.handover,
            request: [DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: ["age_over_18": false]])],
            trustAnchors: [try DemoMaterial.iaca()], now: { Date() })
        let options = engagement.nfcCarrier
        let retrieval = NFCDataTransferReader(channel: channel, holderOptions: options, shortAPDUsOnly: !extendedLength)
        try await retrieval.select()
        guard case .send(let establishment) = try session.start() else { throw TestDataError("the reader sent no SessionEstablishment") }
        guard case .received(let report, _) = session.receive(try await retrieval.exchange(establishment)) else {
            throw TestDataError("no response came over NFC")
        }
        return (report, session.sessionTranscript, tapped, channel.commands)
    }

    @Test(arguments: [true, false])
    func aWholeSessionOverNFCVerifies(extendedLength: Bool) async throws {
        let (report, transcript, select, commands) = try await Self.readOverNFC(extendedLength: extendedLength)

        #expect(report.outcome == .verified, "\(report.failureSummary)")
        #expect(report.verifiedDocuments?.first?.elements.map(\.identifier.value) == ["age_over_18"])
        #expect(transcript.transcript.handover == .nfc(handoverSelect: select.bytes, handoverRequest: nil))
        print("NFC session through pcscd (\(extendedLength ? "extended" : "short") APDUs): \(commands) command APDUs")
    }

    /// A command channel that counts what went through it.
    final class CountingChannel: NFCCommandChannel {
        let channel: PCSCCommandChannel
        private let count = NIOLockedValueBox(0)

        init(_ channel: PCSCCommandChannel) {
            self.channel = channel
        }

        /// The commands sent so far.
        var commands: Int { count.withLockedValue { $0 } }
        var maximumCommandDataLength: Int { channel.maximumCommandDataLength }
        var maximumResponseDataLength: Int { channel.maximumResponseDataLength }

        func transmit(_ command: MdocNFC.CommandAPDU) async throws(NFCError) -> MdocNFC.ResponseAPDU {
            count.withLockedValue { $0 += 1 }
            return try await channel.transmit(command)
        }
    }
}
