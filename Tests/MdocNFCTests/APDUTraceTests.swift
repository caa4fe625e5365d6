import MdocModel
import MdocNFC
import MdocTestSupport
import Testing

/// The APDU trace a session capture keeps (`apdus.txt`): recorded by a tracing channel, written
/// and read back, and its reader facing hostile text.
@Suite("APDU traces: recorded, written, read back, hostile text")
struct APDUTraceTests {
    /// A channel whose every command fails, as a card taken away does.
    struct GoneChannel: NFCCommandChannel {
        let maximumCommandDataLength = 255
        let maximumResponseDataLength = 256

        func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
            throw NFCError(.connectionLost, "the card is gone")
        }
    }

    @Test("an engagement traced through a channel reads back from its text, failures included")
    func aTracedEngagementReadsBack() async throws {
        let card = NFCCard(ndefApplication: NDEFTagApplication(staticHandover: try NDEFTagTests.staticSelect()), dataTransferApplication: nil)
        let recorder = TracingChannel.Recorder()
        let engagement = try await NDEFTagReader(channel: TracingChannel(CardChannel(card: card), recorder: recorder))
            .engage(handoverRequest: nil)
        await #expect(throws: NFCError.self) {
            try await TracingChannel(GoneChannel(), recorder: recorder).transmit(.select(file: 0xE104))
        }
        let trace = await recorder.trace
        // SELECT, SELECT CC, READ CC, SELECT NDEF, READ length, READ message, then the failure.
        #expect(trace.exchanges.count == 7)
        #expect(trace.exchanges.last?.response == nil)
        #expect(trace.exchanges.last?.failure?.contains("the card is gone") == true)
        let text = trace.text
        #expect(text.hasPrefix(APDUTrace.heading + "\n"))
        let read = try APDUTrace(text: text)
        #expect(read.exchanges.map(\.command) == trace.exchanges.map(\.command))
        #expect(read.exchanges.map(\.response) == trace.exchanges.map(\.response))
        // The Handover Select is in the responses as the reader read it.
        let message = try #require(read.exchanges[5].response).data
        #expect(message == engagement.handoverSelect.bytes)
    }

    @Test("comments, blank lines, spaces and Windows line ends are ignored")
    func looseTextReads() throws {
        let trace = try APDUTrace(text: "# a note\r\n\n>  00 A4 04 00 07 D2760000850101 00 \r\n<90 00\n# end\n")
        #expect(trace.exchanges.count == 1)
        #expect(trace.exchanges[0].command == .select(application: NDEFTagApplication.applicationIdentifier, expectedLength: 256))
        #expect(trace.exchanges[0].response?.statusWord == .success)
    }

    @Test("hostile text: each fault named with its line", arguments: [
        ("> 00A4040007D276000085010100\nhello\n", 2, "neither a comment nor an APDU"),
        ("> 00A4040007D276000085010100\n< 90\n", 2, "no response APDU"),
        ("< 9000\n", 1, "a response without its command"),
        ("> 00A4040007D276000085010100\n< 9000\n< 9000\n", 3, "a response without its command"),
        ("> 0A\n", 1, "no command APDU"),
        ("> 00A4G0\n", 1, "not hexadecimal"),
        ("> 00A\n", 1, "not hexadecimal"),
    ])
    func hostileText(text: String, line: Int, reason: String) {
        #expect {
            try APDUTrace(text: text)
        } throws: { error in
            guard let error = error as? NFCError else { return false }
            return error.code == .malformed && error.reason.hasPrefix("line \(line) ") && error.reason.contains(reason)
        }
    }

    @Test("at most maximumExchanges commands: the bound holds, one more is refused")
    func theExchangeBound() throws {
        let line = "> 00B0000002\n< 00009000\n"
        let full = String(repeating: line, count: APDUTrace.maximumExchanges)
        #expect(try APDUTrace(text: full).exchanges.count == APDUTrace.maximumExchanges)
        #expect(throws: NFCError.self) { try APDUTrace(text: full + "> 00B0000002\n") }
    }

    @Test("a recorder keeps at most maximumExchanges exchanges")
    func theRecorderBound() async throws {
        let recorder = TracingChannel.Recorder()
        let channel = TracingChannel(GoneChannel(), recorder: recorder)
        for _ in 0...APDUTrace.maximumExchanges {
            _ = try? await channel.transmit(.select(file: 0xE103))
        }
        #expect(await recorder.trace.exchanges.count == APDUTrace.maximumExchanges)
    }
}
