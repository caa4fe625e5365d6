import FuzzSupport
import MdocModel
import MdocNFC

/// What a card and a reader meet over NFC (ISO/IEC 7816-4, NFC Forum Type 4 Tag, ISO/IEC 18013-5
/// 8.2.2.1, 8.3.3.1.2): the input as one command APDU, one response APDU, one data object 53 and
/// an APDU trace's text form (what a session capture keeps);
/// then its length-prefixed parts, up to 32, as command APDUs to a card offering negotiated
/// handover and NFC data retrieval (with a holder answering every message), and as the
/// responses of a card to this toolkit's Type 4 Tag reader and data retrieval reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPDU(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let command = try? CommandAPDU(bytes: bytes) {
        precondition((try? CommandAPDU(bytes: command.bytes)) == command, "a command APDU does not read back")
    }
    if let response = try? ResponseAPDU(bytes: bytes) {
        precondition(response.bytes == bytes, "a response APDU does not write back")
    }
    if let message = try? DiscretionaryData.decode(bytes) {
        precondition((try? DiscretionaryData.decode(DiscretionaryData.encode(message))) == message, "a data object 53 does not read back")
    }
    if let trace = try? APDUTrace(text: String(decoding: bytes, as: UTF8.self)) {
        precondition(trace.exchanges.count <= APDUTrace.maximumExchanges, "a trace past its bound")
        let again = try? APDUTrace(text: trace.text)
        precondition(again?.exchanges.map(\.command) == trace.exchanges.map(\.command)
                     && again?.exchanges.map(\.response) == trace.exchanges.map(\.response), "an APDU trace does not read back")
    }
    let parts = FuzzInput.parts(of: bytes, limit: 32)
    FuzzAsync.run {
        await card(parts)
        await readers(parts)
    }
    return 0
}

/// The card fed `commands`, its mdoc application answered by a holder task.
private func card(_ commands: [[UInt8]]) async {
    let dataTransfer = NFCDataTransferApplication(maximumCommandDataLength: 1000, maximumResponseDataLength: 300, maximumMessageLength: 4096)
    let ndef = NDEFTagApplication(maximumDataLength: 200) { _ in answer }
    let card = NFCCard(ndefApplication: ndef, dataTransferApplication: dataTransfer)
    let holder = Task {
        while !Task.isCancelled {
            do {
                let message = try await dataTransfer.receive()
                try await dataTransfer.send(message + message)
            } catch {
                if (error as? NFCError)?.code == .cancelled { return }
            }
        }
    }
    for command in commands {
        let response = await card.respond(to: command)
        precondition(response.count >= 2 && response.count <= 2 + 300, "a response of \(response.count) bytes")
    }
    await card.fieldOff()
    holder.cancel()
    await holder.value
}

/// The Handover Select message the card's holder answers every Handover Request with.
private let answer = HandoverSelectMessage(
    deviceEngagement: [0xA2, 0x00, 0x63, 0x31, 0x2E, 0x30, 0x01, 0x80],
    carriers: [.nfc(NFCCarrier(maximumCommandDataLength: 1000, maximumResponseDataLength: 300))])

/// The two readers, each against a card answering with `responses` in turn.
private func readers(_ responses: [[UInt8]]) async {
    let request = HandoverRequestMessage(readerEngagement: [0xA1, 0x00, 0x63, 0x31, 0x2E, 0x30],
                                         carriers: [.nfc(NFCCarrier(maximumCommandDataLength: 255, maximumResponseDataLength: 256))],
                                         collisionResolutionNumber: 1)
    let tag = ReplayChannel(responses)
    if let engagement = try? await NDEFTagReader(channel: tag, clock: ImmediateClock(), selectTimeout: .seconds(1))
        .engage(handoverRequest: request) {
        _ = engagement.handover
    }
    let transfer = ReplayChannel(responses)
    let reader = NFCDataTransferReader(channel: transfer, holderOptions: NFCCarrier(maximumCommandDataLength: 1000, maximumResponseDataLength: 4000),
                                       maximumMessageLength: 8192)
    _ = try? await reader.exchange([UInt8](repeating: 0x5A, count: 600))
}

/// A card that answers each command with the next of its responses, then fails.
private actor ReplayChannel: NFCCommandChannel {
    nonisolated let maximumCommandDataLength = 4000
    nonisolated let maximumResponseDataLength = 4000
    private var responses: [[UInt8]]

    init(_ responses: [[UInt8]]) {
        self.responses = responses
    }

    func transmit(_ command: CommandAPDU) async throws(NFCError) -> ResponseAPDU {
        guard !responses.isEmpty else { throw NFCError(.connectionLost, "no more responses") }
        return try ResponseAPDU(bytes: responses.removeFirst())
    }
}

/// A clock whose sleeps end at once, so a reader's waits cost the fuzzer nothing; its time
/// moves on by what was slept.
private final class ImmediateClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private(set) var now = Instant(offset: .zero)
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        if now < deadline { now = deadline }
    }
}
