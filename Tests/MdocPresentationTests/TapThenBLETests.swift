import MdocBLE
import MdocCBOR
import MdocModel
import MdocNFC
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

/// Engagement by tap, then the session over BLE (ISO/IEC 18013-5 8.2.2.1): the holder's
/// engagement as an NFC tag, read in-process by the reader's `NDEFTagReader`, and a session over
/// an in-memory radio whose transcript holds the handover on both sides.
@Suite struct TapThenBLETests {
    /// A channel to a card in this process, short APDUs only, as most USB readers carry them.
    struct CardChannel: NFCCommandChannel {
        let card: NFCCard
        var maximumCommandDataLength: Int { CommandAPDU.maximumShortDataLength }
        var maximumResponseDataLength: Int { CommandAPDU.maximumShortExpectedLength }

        func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
            try ResponseAPDU(bytes: await card.respond(to: command.bytes))
        }
    }

    static func holder(modes: (peripheral: Bool, central: Bool)) throws -> MdocHolder {
        MdocHolder(configuration: .init(
            credentials: [try DemoMaterial.mDL()],
            bleOptions: { .offering(peripheralServerMode: modes.peripheral, centralClientMode: modes.central) },
            readerTrust: ReaderRootTrust(trustAnchors: []), consent: HolderConsent.approvingAllAvailable,
            timeouts: generousTimeouts))
    }

    static func reader(preferring mode: MdocBLEMode? = nil) throws -> MdocReader {
        MdocReader(configuration: .init(
            request: ageOver18, trustAnchors: [try DemoMaterial.iaca()], timeouts: generousTimeouts, preferredMode: mode))
    }

    /// Presents with `mode`'s tag and reads it by tap over one in-memory radio.
    static func tapThenRead(
        _ holder: MdocHolder, _ mode: NFCHandoverMode, by reader: MdocReader
    ) async throws -> (holder: HolderSessionResult, engagement: NFCEngagement, verdict: ReaderVerdict) {
        let radio = InMemoryRadio()
        let (tags, offered) = AsyncStream.makeStream(of: NDEFTagApplication.self)
        async let presented = holder.present(over: radio, handover: mode) { _, tag in offered.yield(tag) }
        var next = tags.makeAsyncIterator()
        let tag = try #require(await next.next())
        let channel = CardChannel(card: NFCCard(ndefApplication: tag, dataTransferApplication: nil))
        let engagement = try await NDEFTagReader(channel: channel).engage(handoverRequest: reader.handoverRequest())
        let verdict = try await reader.session(for: engagement).run(over: radio)
        return (try await presented, engagement, verdict)
    }

    @Test(arguments: NFCHandoverMode.allCases, [(true, false), (false, true), (true, true)])
    func aTapThenBLESessionVerifies(mode: NFCHandoverMode, modes: (Bool, Bool)) async throws {
        let (presented, engagement, verdict) = try await Self.tapThenRead(
            try Self.holder(modes: modes), mode, by: try Self.reader())

        #expect(verdict.verifiedDocuments?.first(ofType: DocType.mDL)?.ageOver(18) == true, "\(verdict)")
        #expect(presented.end.isNormalEnd)
        #expect((engagement.handoverRequest != nil) == (mode == .negotiatedHandover))
        // Both sides hold the handover as it crossed, so their transcripts are one.
        #expect(presented.sessionTranscript?.transcript.handover == engagement.handover)
        // One BLE carrier record per mode offered, each with its own ID and the mode's UUID.
        let carriers = engagement.handoverSelect.carriers.compactMap(\.bluetoothLE)
        #expect(carriers.count == [modes.0, modes.1].filter { $0 }.count)
        #expect(Set(carriers.map(\.recordID)).count == carriers.count)
    }

    @Test("negotiated handover selects the modes both offer: the reader's preferred one only")
    func negotiatedHandoverSelectsTheCommonModes() async throws {
        let (_, engagement, verdict) = try await Self.tapThenRead(
            try Self.holder(modes: (true, true)), .negotiatedHandover, by: try Self.reader(preferring: .centralClient))
        #expect(verdict.verifiedDocuments != nil, "\(verdict)")
        let options = try #require(try engagement.bleOptions())
        #expect(options.centralClientModeSupported && !options.peripheralServerModeSupported)
        #expect(verdict.details.mode == .centralClient)
    }

    @Test("a Handover Request with no BLE mode the mdoc offers is refused by the tag")
    func aRequestWithNoCommonModeIsRefused() async throws {
        let (tags, offered) = AsyncStream.makeStream(of: NDEFTagApplication.self)
        let holder = try Self.holder(modes: (true, false))
        let presenting = Task { try await holder.present(over: InMemoryRadio(), handover: .negotiatedHandover) { _, tag in offered.yield(tag) } }
        defer { presenting.cancel() }
        var next = tags.makeAsyncIterator()
        let tag = try #require(await next.next())
        let channel = CardChannel(card: NFCCard(ndefApplication: tag, dataTransferApplication: nil))
        let request = MdocReader(configuration: .init(
            request: ageOver18, trustAnchors: [], preferredMode: .centralClient)).handoverRequest()
        await #expect(throws: NFCError.self) { try await NDEFTagReader(channel: channel).engage(handoverRequest: request) }
    }
}
