import MdocBLE
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

/// Engagement and data retrieval both over NFC (ISO/IEC 18013-5 8.2.2.1, 8.3.3.1.2), in one
/// process: the holder's tag offers NFC retrieval beside BLE, the reader taps and retrieves
/// through the same card, and the holder serves it as it would a reader over BLE.
@Suite struct NFCRetrievalTests {
    /// A channel to a card in this process carrying at most these lengths.
    struct CardChannel: NFCCommandChannel {
        let card: NFCCard
        let maximumCommandDataLength: Int
        let maximumResponseDataLength: Int

        func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
            try ResponseAPDU(bytes: await card.respond(to: command.bytes))
        }
    }

    /// The holder presents with `mode`'s tag and NFC retrieval; the reader taps through a
    /// channel of `extended` or short APDUs and retrieves over NFC.
    static func tapAndRetrieve(
        _ mode: NFCHandoverMode, extended: Bool, reader: MdocReader? = nil
    ) async throws -> (holder: HolderSessionResult, engagement: NFCEngagement, verdict: ReaderVerdict) {
        let holder = try TapThenBLETests.holder(modes: (true, true))
        let reader = try reader ?? TapThenBLETests.reader()
        let retrieval = NFCDataTransferApplication()
        let (tags, offered) = AsyncStream.makeStream(of: NDEFTagApplication.self)
        async let presented = holder.present(over: InMemoryRadio(), handover: mode, retrieval: retrieval) { _, tag in
            offered.yield(tag)
        }
        var next = tags.makeAsyncIterator()
        let tag = try #require(await next.next())
        let card = NFCCard(ndefApplication: tag, dataTransferApplication: retrieval)
        let channel = extended
            ? CardChannel(card: card, maximumCommandDataLength: CommandAPDU.maximumExtendedDataLength,
                          maximumResponseDataLength: CommandAPDU.maximumExtendedExpectedLength)
            : CardChannel(card: card, maximumCommandDataLength: CommandAPDU.maximumShortDataLength,
                          maximumResponseDataLength: CommandAPDU.maximumShortExpectedLength)
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: reader.handoverRequest(nfcRetrieval: true))
        let verdict = try await reader.session(for: engagement).run(overNFC: channel)
        return (try await presented, engagement, verdict)
    }

    @Test(arguments: NFCHandoverMode.allCases, [true, false])
    func aSessionOverNFCRetrievalVerifies(mode: NFCHandoverMode, extended: Bool) async throws {
        let (presented, engagement, verdict) = try await Self.tapAndRetrieve(mode, extended: extended)
        #expect(verdict.verifiedDocuments?.first(ofType: DocType.mDL)?.ageOver(18) == true, "\(verdict)")
        #expect(verdict.details.mode == nil)
        #expect(presented.mode == nil)
        #expect(presented.end.isNormalEnd, "\(presented.end)")
        #expect(presented.sessionTranscript?.transcript.handover == engagement.handover)
        #expect(engagement.nfcCarrier != nil)
    }

    @Test("a session made from an engagement without NFC retrieval cannot run over NFC")
    func withoutAnNFCCarrierTheSessionFails() async throws {
        let reader = try TapThenBLETests.reader()
        let holder = try TapThenBLETests.holder(modes: (true, false))
        var engagement = try holder.engagement()
        let tag = engagement.tag(.staticHandover)
        let card = NFCCard(ndefApplication: tag, dataTransferApplication: nil)
        let channel = CardChannel(card: card, maximumCommandDataLength: 255, maximumResponseDataLength: 256)
        let tapped = try await NDEFTagReader(channel: channel).engage(handoverRequest: nil)
        let verdict = try await reader.session(for: tapped).run(overNFC: channel)
        guard case .linkFailed(let error, _) = verdict else {
            Issue.record("\(verdict)")
            return
        }
        #expect(error.code == .noCommonMode)
    }
}
