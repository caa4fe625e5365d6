import MdocBLE
import MdocSim
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import Testing

/// Receive bounds are inactivity bounds (ISO/IEC 18013-5 8.3.3.1.1.6): a peer that keeps sending
/// the chunks of a message is not idle, however long the message takes, and only the per-message
/// cap ends a peer that trickles without end. Over `sim`, the holder's real GATT server against a
/// reader in this process that sends its chunks slowly.
@Suite("Receive bounds are inactivity bounds (ISO/IEC 18013-5 8.3.3.1.1.6)", .timeLimit(.minutes(1)))
struct InactivityBoundTests {
    /// Starts `holder` on a sim radio and a hostile reader that has started the session.
    static func start(_ holder: HolderDriver, asking specs: [DocRequestSpec]? = nil) async throws
        -> (Task<HolderSessionResult, Never>, HostileReader)
    {
        let presenting = Task { await holder.run(over: SimAdapter()) }
        let reader = try HostileReader(uri: holder.mdocURI.description, link: SimHostileLink(), asking: specs)
        try await reader.run(until: .started)
        return (presenting, reader)
    }

    @Test("a request that arrives steadily over longer than the idle bound is taken and answered")
    func aSlowButSteadyRequestIsTaken() async throws {
        let full = [RequestPreset.full.docRequestSpec()]
        let holder = try demoHolder(modes: [.peripheralServer], timeouts: SessionTimeouts(connection: .seconds(60), idle: .seconds(2)))
        let (presenting, reader) = try await Self.start(holder, asking: full)
        let started = ContinuousClock.now
        // Each piece well within the idle bound, all of them well beyond it.
        try await reader.sendRequest(pausingFor: .milliseconds(200))
        let took = ContinuousClock.now - started
        _ = try await reader.receiveResponse()
        reader.close()
        let result = await presenting.value

        #expect(took > .seconds(2), "the request took \(took), not longer than the idle bound")
        #expect(result.disclosures.count == 1, "\(result.end)")
        #expect(result.end == .session(.transportEnded), "\(result.end)")
    }

    @Test("a peer that keeps sending and never finishes its message is stopped by the message cap, not the idle bound")
    func aTricklingPeerMeetsTheMessageCap() async throws {
        let holder = try demoHolder(
            modes: [.peripheralServer],
            timeouts: SessionTimeouts(connection: .seconds(60), idle: .seconds(3), message: .seconds(1)))
        let (presenting, reader) = try await Self.start(holder)
        try await reader.trickle(chunks: 300, pausingFor: .milliseconds(50))
        reader.close()
        let result = await presenting.value

        #expect(result.end == .link(LinkError(.timeout, "")), "\(result.end)")
        #expect(result.end.description == "the message from the reader took longer than 1 s to arrive, though the peer kept sending",
                "\(result.end)")
    }
}
