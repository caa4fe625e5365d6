import Logging
import MdocBLE
import MdocCBOR
import MdocModel
@testable import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Receive bounds are inactivity bounds (ISO/IEC 18013-5 8.3.3.1.1.6): a peer that keeps sending
/// the chunks of a message is not idle, however long the message takes, and only the per-message
/// cap ends a peer that trickles without end. The holder runs over the in-memory link in virtual
/// time: the test is the reader, and sends its chunks one at a time, moving the holder's clock
/// on between them; a chunk has arrived when its send returns.
@Suite("Receive bounds are inactivity bounds (ISO/IEC 18013-5 8.3.3.1.1.6)", .timeLimit(.minutes(1)))
struct InactivityBoundTests {
    /// A reader's session with `holder` asking for `request`.
    static func session(with holder: HolderDriver, asking request: [DocRequestSpec] = ageOver18) throws -> ReaderSession {
        try ReaderSession(uri: holder.mdocURI, request: request, trustAnchors: [try DemoMaterial.iaca()], now: { .now })
    }

    /// Starts `holder` on an in-memory radio, and returns the reader's end of the link once the
    /// holder waits for the request on `clock`.
    static func start(_ holder: HolderDriver, clock: ManualClock) async throws
        -> (Task<HolderSessionResult, Never>, InMemoryTransport)
    {
        let radio = InMemoryRadio()
        let presenting = Task { await holder.run(over: radio) }
        let ident = try session(with: holder).bleIdent
        let link = try await radio.readerLink(
            mode: .peripheralServer, serviceUUID: try #require(holder.deviceEngagement.value.bleOptions?.peripheralServerModeUUID),
            ident: ident, timeout: .seconds(60), logger: .init(label: "test"))
        await clock.sleeping()
        return (presenting, try #require(link as? InMemoryTransport))
    }

    @Test("a request that arrives steadily over longer than the idle bound is taken and answered")
    func aSlowButSteadyRequestIsTaken() async throws {
        let clock = ManualClock()
        let holder = try demoHolder(
            modes: [.peripheralServer], timeouts: SessionTimeouts(connection: .seconds(60), idle: .seconds(2)), clock: clock)
        let (presenting, link) = try await Self.start(holder, clock: clock)
        var session = try Self.session(with: holder, asking: [RequestPreset.full.docRequestSpec()])
        guard case .send(let request) = try session.start() else {
            Issue.record("the reader's session did not start with its request")
            return
        }
        // Each piece well within the idle bound, all of them well beyond it.
        let pieces = ChunkFault.pieces(of: request)
        for (index, piece) in pieces.enumerated() {
            try link.send(chunks: [piece])
            if index < pieces.count - 1 { clock.advance(by: .milliseconds(200)) }
        }
        let took = clock.now.offset
        let response = try await link.receive()
        link.close()
        let result = await presenting.value

        #expect(took > .seconds(2), "the request took \(took), not longer than the idle bound")
        guard case .message = response else {
            Issue.record("no response: \(response), \(result.end)")
            return
        }
        #expect(result.disclosures.count == 1, "\(result.end)")
        #expect(result.end == .session(.transportEnded), "\(result.end)")
    }

    @Test("a peer that keeps sending and never finishes its message is stopped by the message cap, not the idle bound")
    func aTricklingPeerMeetsTheMessageCap() async throws {
        let clock = ManualClock()
        let holder = try demoHolder(
            modes: [.peripheralServer],
            timeouts: SessionTimeouts(connection: .seconds(60), idle: .seconds(3), message: .seconds(1)), clock: clock)
        let (presenting, link) = try await Self.start(holder, clock: clock)
        for _ in 0..<300 {
            guard (try? link.send(chunks: [[MessageChunker.moreChunksHeader, 0xA5, 0xA5, 0xA5]])) != nil else { break }
            clock.advance(by: .milliseconds(50))
        }
        let result = await presenting.value

        #expect(result.end == .link(LinkError(.timeout, "")), "\(result.end)")
        #expect(result.end.description == "the message from the reader took longer than 1 s to arrive, though the peer kept sending",
                "\(result.end)")
    }
}
