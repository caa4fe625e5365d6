import MdocBLE
import MdocModel
import MdocPresentation
import MdocSession
import MdocTestPeers
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Faults on the link (ISO/IEC 18013-5 8.3.3.1.1), injected by hostile peers into sessions run
/// by the drivers in this process: broken chunking, a peer that vanishes at each phase, and a
/// peer that stalls. Every session must end with a clear failure, within the bound that applies,
/// and a reader must never report an unverified result as verified. A reader that vanishes
/// before it started the session (State 0x01) was never the holder's reader: the holder goes on
/// waiting, and serves the reader that comes next.
///
/// Every test runs over `sim` and over `hci:tcp` with Bumble virtual controllers. The message
/// over the 4 MiB reassembly limit is sent over `sim` only: over the virtual link it is 164,000
/// ACL packets through Python, and the limit it tests is the transport-independent
/// reassembler's. It no longer races the machine's speed: the holder's idle bound counts from the
/// last chunk, not from the start of the message.
@Suite(.timeLimit(.minutes(3)))
struct LinkFaultTests {
    /// Every link with every chunk fault, but the 4 MiB flood over hci (see above).
    static let chunkCases: [(LinkKind, ChunkFault)] = LinkKind.allCases.flatMap { kind in
        ChunkFault.allCases.filter { kind == .sim || $0 != .overLimit }.map { (kind, $0) }
    }
    /// The bound where a stalled peer is what ends the session. Every bound runs out in virtual
    /// time (``ManualClock/advancing(by:while:)``) once the peer stalled; each step of the
    /// hostile peer until its stall must come within the real-time backstop of the radio's waits
    /// (``LinkDeadline/backstop``) while the whole suite runs in this process on two cores
    /// (longer under sanitizers, ``TimeoutScale``).
    static let stall: Duration = .seconds(15 * TimeoutScale.factor)
    /// The stall bound as the failures name it.
    static let stallText = "within \(15 * TimeoutScale.factor) s"

    // MARK: The holder under test

    /// A holder in peripheral server mode running over the link's side under test.
    struct Holder {
        let uri: String
        let task: Task<HolderSessionResult, Never>

        /// How its session ended.
        var result: HolderSessionResult {
            get async { await task.value }
        }
    }

    static func startHolder(
        _ link: any HostileLink, timeouts: SessionTimeouts = generousTimeouts, events: EventLog<HolderEvent> = EventLog(),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> Holder {
        let radio = try await link.openRadio()
        let driver = try demoHolder(modes: [.peripheralServer], timeouts: timeouts, events: events, clock: clock)
        let task = Task {
            let result = await driver.run(over: radio)
            await radio.close()
            return result
        }
        return Holder(uri: driver.mdocURI.description, task: task)
    }

    /// A well-behaved reader on the link's other side verifies the age_over_18 it asks for.
    static func verifySession(_ uri: String, over link: any HostileLink, context: @autoclosure () -> String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let radio = try await link.openOtherRadio()
        let reader = try ReaderDriver(uri: try MdocURI(uri), request: ageOver18, trustAnchors: [try DemoMaterial.iaca()],
                                      timeouts: generousTimeouts)
        let read = await reader.run(over: radio, mode: .peripheralServer)
        await radio.close()
        #expect(read.report?.outcome == .verified, "\(context()): \(read.end)", sourceLocation: sourceLocation)
    }

    @Test(arguments: chunkCases)
    func brokenRequestChunkingFailsTheHolder(over kind: LinkKind, _ fault: ChunkFault) async throws {
        let link = try await kind.make()
        let holder = try await Self.startHolder(link)
        let reader = try HostileReader(uri: holder.uri, link: link)
        try await reader.run(until: .started)
        try await reader.sendRequest(fault)
        let result = await holder.result
        reader.close()

        // The fault's own failure, not a bound running out: how long the flood over the limit
        // takes is the machine's (over 60 s under the sanitizers), and no bound of it is tested.
        #expect(result.end != .link(LinkError(.timeout, "")), "the holder waited for its bound: \(result.end)")
        #expect(!result.end.isNormalEnd)
        #expect(result.end.description.contains(fault.holderFailure), "\(result.end)")
        withExtendedLifetime(link) {}
    }

    @Test(arguments: LinkKind.allCases, ReaderPhase.allCases.filter(\.isBeforeStart))
    func readerVanishingBeforeTheStartLeavesTheHolderWaitingForTheNext(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        let holder = try await Self.startHolder(link)
        let reader = try HostileReader(uri: holder.uri, link: link)
        try await reader.run(until: phase)
        reader.close()
        try await Self.verifySession(holder.uri, over: link, context: "after a central that left at \(phase)")
        let result = await holder.result

        #expect(result.end == .session(.terminatedByReader), "\(result.end)")
        #expect(result.mode == .peripheralServer)
        withExtendedLifetime(link) {}
    }

    @Test(arguments: LinkKind.allCases, ReaderPhase.allCases.filter { !$0.isBeforeStart })
    func readerVanishingEndsTheHolder(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        let holder = try await Self.startHolder(link)
        let reader = try HostileReader(uri: holder.uri, link: link)
        try await reader.run(until: phase)
        let vanished = ContinuousClock.now
        reader.close()
        let result = await holder.result

        #expect(ContinuousClock.now - vanished < generousTimeouts.idle, "the holder waited for its bound")
        if phase == .responseReceived || (phase == .requestSent && result.end == .session(.transportEnded)) {
            // The response was delivered: a reader may simply go (ISO/IEC 18013-5 leaves the end
            // to either side). A reader that vanishes right after its request may still find the
            // response sent before the holder sees the link close, as on a radio link.
            #expect(result.end == .session(.transportEnded), "\(result.end)")
        } else {
            #expect(!result.end.isNormalEnd, "\(result.end)")
        }
        withExtendedLifetime(link) {}
    }

    @Test(arguments: LinkKind.allCases, [ReaderPhase.connected, .started, .midRequest])
    func aStalledReaderEndsTheHolderAtItsBound(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        let clock = ManualClock()
        let holder = try await Self.startHolder(link, timeouts: SessionTimeouts(connection: Self.stall, idle: Self.stall), clock: clock)
        let reader = try HostileReader(uri: holder.uri, link: link)
        try await reader.run(until: phase)
        let result = await clock.advancing(by: Self.stall) { await holder.result }
        reader.close()

        // The bound runs out in virtual time, as soon as the holder sleeps on it: whether the
        // holder had taken the reader's link and its State 0x01 by then is a race (under the
        // sanitizers, even a reader mid-request was still one that had not started). Either way
        // it is the connection's or the session's bound that ended the holder.
        #expect([.link(LinkError(.timeout, "")), .link(LinkError(.sessionNotStarted, ""))].contains(result.end), "\(result.end)")
        #expect(result.end.description.contains(Self.stallText), "\(result.end)")
        #expect(clock.now.offset >= Self.stall, "the holder's bound ran out at \(clock.now)")
        withExtendedLifetime(link) {}
    }

    // MARK: The reader under test

    /// A reader in peripheral server mode on `uri`, over the link's side under test.
    static func read(
        _ uri: String, over link: any HostileLink, timeouts: SessionTimeouts = generousTimeouts,
        events: EventLog<ReaderEvent> = EventLog(), log: LogRecorder = LogRecorder(),
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> Task<ReaderSessionResult, Never> {
        let radio = try await link.openRadio()
        let reader = try ReaderDriver(uri: try MdocURI(uri), request: ageOver18, trustAnchors: [try DemoMaterial.iaca()],
                                      timeouts: timeouts, logger: log.logger, events: events.record, clock: clock)
        return Task {
            let result = await reader.run(over: radio, mode: .peripheralServer)
            await radio.close()
            return result
        }
    }

    /// Nothing the reader got counts as verified.
    static func expectNothingVerified(_ result: ReaderSessionResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.report?.outcome != .verified, sourceLocation: sourceLocation)
        #expect(verifiedValues(result).isEmpty, sourceLocation: sourceLocation)
    }

    @Test(arguments: chunkCases)
    func brokenResponseChunkingFailsTheReader(over kind: LinkKind, _ fault: ChunkFault) async throws {
        let link = try await kind.make()
        let holder = try HostileHolder(link: link)
        let reader = try await Self.read(holder.uri, over: link)
        try await holder.run(until: .requestReceived)
        try await holder.sendResponse(fault)
        let result = await reader.value
        holder.close()

        // The fault's own failure, not a bound running out (see the holder's test above).
        #expect(result.end != .link(LinkError(.timeout, "")), "the reader waited for its bound: \(result.end)")
        #expect(!result.end.isNormalEnd)
        #expect(result.end.description.contains(fault.readerFailure), "\(result.end)")
        Self.expectNothingVerified(result)
    }

    /// A holder vanishing before the reader started the session (State 0x01) leaves the reader
    /// looking for it again until its bound runs out, in virtual time (then it says what became
    /// of the link); after the start, the session fails at once.
    @Test(arguments: LinkKind.allCases, HolderPhase.allCases)
    func holderVanishingFailsTheReader(over kind: LinkKind, at phase: HolderPhase) async throws {
        let link = try await kind.make()
        let holder = try HostileHolder(link: link)
        // A link dropped before the reader's GATT client wrote State 0x01 (after accepting or
        // exchanging the ATT MTU) leaves the reader looking again; its bound runs out in virtual
        // time once it does. One dropped as it subscribed fails within the connection bound
        // (in virtual time too), one dropped after the start at once.
        let looksAgain = phase == .accepted || phase == .mtuExchanged
        let clock = ManualClock()
        let log = LogRecorder()
        let timeouts = SessionTimeouts(connection: phase.isBeforeStart ? Self.stall : generousTimeouts.connection, idle: generousTimeouts.idle)
        let reader = try await Self.read(holder.uri, over: link, timeouts: timeouts, log: log,
                                         clock: phase.isBeforeStart ? clock : ContinuousClock())
        try await holder.vanish(at: phase)
        let vanished = ContinuousClock.now
        let result: ReaderSessionResult
        if looksAgain {
            await log.waitFor(1, containing: "the link dropped before the session started")
            await clock.sleeping(dueWithin: Self.stall)
            clock.advance(by: Self.stall)
            result = await reader.value
        } else if phase.isBeforeStart {
            result = await clock.advancing(by: Self.stall) { await reader.value }
        } else {
            result = await reader.value
        }

        #expect(ContinuousClock.now - vanished < generousTimeouts.idle, "the reader waited for its bound")
        #expect(!result.end.isNormalEnd, "\(result.end)")
        if looksAgain {
            #expect(result.end.description.contains("\(Self.stallText): 1 link was made and dropped before the session started ("),
                    "\(result.end)")
        }
        Self.expectNothingVerified(result)
    }

    @Test(arguments: LinkKind.allCases, [HolderPhase.started, .requestReceived, .midResponse])
    func aStalledHolderEndsTheReaderAtItsBound(over kind: LinkKind, at phase: HolderPhase) async throws {
        let link = try await kind.make()
        let holder = try HostileHolder(link: link)
        let clock = ManualClock()
        let events = EventLog<ReaderEvent>()
        let reader = try await Self.read(
            holder.uri, over: link, timeouts: SessionTimeouts(connection: generousTimeouts.connection, idle: Self.stall, response: Self.stall),
            events: events, clock: clock)
        try await holder.run(until: phase)
        // The request went out (a Write Command needs no answer): the wait for the response is
        // what the stall runs out.
        await readerWaitsForConsent(events)
        let result = await clock.advancing(by: Self.stall) { await reader.value }
        holder.close()

        #expect(result.end == .link(LinkError(.timeout, "")), "\(result.end)")
        #expect(result.end.description.contains(Self.stallText), "\(result.end)")
        #expect(clock.now.offset >= Self.stall, "the reader's bound ran out at \(clock.now)")
        Self.expectNothingVerified(result)
    }
}
