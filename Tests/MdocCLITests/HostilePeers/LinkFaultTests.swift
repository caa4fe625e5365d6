import Foundation
import MdocTestPeers
import Testing

/// Faults on the link (ISO/IEC 18013-5 8.3.3.1.1), injected by hostile peers in this process
/// into sessions with the real `mdoc-holder` and `mdoc-reader` programs: broken chunking, a
/// peer that vanishes at each phase, and a peer that stalls. Every session must end with a clear
/// error and exit 8 within the program's `--timeout`, a reader must never print an unverified
/// result as verified, and a holder started with `--keep-running` must serve the next reader. A
/// reader that vanishes before it started the session (State 0x01) was never the holder's
/// reader: the holder goes on waiting, and serves the reader that comes next.
///
/// The peers speak ATT over a ``HostileLink``; every test runs over `sim` and over `hci:tcp`
/// with Bumble virtual controllers. A message over the 4 MiB reassembly limit is sent over `sim`
/// only: over the virtual link it is 164,000 ACL packets through Python, longer than the
/// programs' timeout, and the limit it tests is the transport-independent reassembler's.
@Suite struct LinkFaultTests {
    /// Every link with every chunk fault, but the 4 MiB flood over hci (see above).
    static let chunkCases: [(LinkKind, ChunkFault)] = LinkKind.allCases.flatMap { kind in
        ChunkFault.allCases.filter { kind == .sim || $0 != .overLimit }.map { (kind, $0) }
    }
    /// The `--timeout` of the programs in tests where the peer does not stall: generous, since
    /// the suite runs in parallel on two cores; the session must end long before it.
    static let timeout = 30 * TimeoutScale.factor
    /// The `--timeout` where the peer stalls, so the wait is what ends the session: long
    /// enough that the peer in this process, slowed by the synchronous tests that share its
    /// threads when the whole suite runs, still connects before the program gives up on it.
    /// Scaled too: under ThreadSanitizer a hostile reader was still setting up its link at 20 s.
    static let stallTimeout = 20 * TimeoutScale.factor
    /// How long after its stall timeout a program may take to end: it is busy with nothing
    /// else, but shares two cores with the rest of the suite.
    static let stallSlack = Double(10 * TimeoutScale.factor)

    /// What the holder reports when a hostile reader's request arrives broken by the fault.
    static func holderError(_ fault: ChunkFault) -> String {
        switch fault {
        case .dropped, .duplicated, .reordered: return "the session failed (messageDecodingFailed)"
        case .oversized: return "pduTooLarge"
        case .badHeader: return "invalidChunkHeader"
        case .overLimit: return "messageTooLarge"
        }
    }

    /// What the reader reports when a hostile holder's response arrives broken by the fault:
    /// the response is mostly ciphertext, so two chunks in each other's place keep its CBOR
    /// well-formed and fail its decryption, while a missing or doubled chunk breaks the CBOR.
    static func readerError(_ fault: ChunkFault) -> String {
        switch fault {
        case .dropped, .duplicated: return "the session failed (messageDecodingFailed)"
        case .reordered: return "the session failed (decryptionFailed)"
        case .oversized: return "pduTooLarge"
        case .badHeader: return "invalidChunkHeader"
        case .overLimit: return "messageTooLarge"
        }
    }

    // MARK: The holder under test

    /// Starts `mdoc-holder present` in peripheral server mode with `--yes`.
    static func startHolder(_ link: any HostileLink, timeout: Int = LinkFaultTests.timeout,
                            keepRunning: Bool = false) throws -> BackgroundProgram {
        var arguments: [String] = [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "peripheral", "--no-qr",
            "--transport", link.transport, "--timeout", String(timeout),
        ]
        if keepRunning {
            arguments.append("--keep-running")
        }
        return try BackgroundProgram("mdoc-holder", arguments, environment: link.environment)
    }

    /// Runs a well-behaved `mdoc-reader` on `uri` over the link's other transport; expects it
    /// to verify the age_over_18 it asked for.
    static func verifySession(_ uri: String, over link: any HostileLink, context: @autoclosure () -> String,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let arguments: [String] = [
            "request", uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--ble-mode", "peripheral",
            "--transport", link.otherTransport, "--timeout", String(Self.timeout),
        ]
        let reader = await (try BackgroundProgram("mdoc-reader", arguments, environment: link.environment))
            .awaitExit(timeout: LiveSession.waitTimeout)
        #expect(reader.status == 0, "\(context()): \(reader.standardError)", sourceLocation: sourceLocation)
        #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(reader.standardOutput)",
                sourceLocation: sourceLocation)
    }

    /// The holder's `number`th engagement.
    static func engagement(_ holder: BackgroundProgram, _ number: Int = 1) async throws -> String {
        try #require(await holder.awaitLine(startingWith: "mdoc:", number: number, timeout: LiveSession.waitTimeout),
                     "engagement \(number): \(holder.standardError)")
    }

    @Test(arguments: chunkCases)
    func brokenRequestChunkingFailsTheHolder(over kind: LinkKind, _ fault: ChunkFault) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startHolder(link)
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: link)
        try await reader.run(until: .started)
        let started = Date()
        try await reader.sendRequest(fault)
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        reader.close()

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-holder: error: "), "\(result.standardError)")
        #expect(result.standardError.contains(Self.holderError(fault)), "\(result.standardError)")
        #expect(Date().timeIntervalSince(started) < Double(Self.timeout), "the holder waited for its timeout")
    }

    @Test(arguments: LinkKind.allCases, ReaderPhase.allCases.filter(\.isBeforeStart))
    func readerVanishingBeforeTheStartLeavesTheHolderWaitingForTheNext(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startHolder(link)
        let uri = try await Self.engagement(holder)
        let reader = try HostileReader(uri: uri, link: link)
        try await reader.run(until: phase)
        reader.close()
        try await Self.verifySession(uri, over: link, context: "after a central that left at \(phase)")
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("error"), "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-holder: reader connected in mdoc peripheral server mode"), "\(result.standardError)")
    }

    @Test(arguments: LinkKind.allCases, ReaderPhase.allCases.filter { !$0.isBeforeStart })
    func readerVanishingEndsTheHolder(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startHolder(link)
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: link)
        try await reader.run(until: phase)
        let vanished = Date()
        reader.close()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(Date().timeIntervalSince(vanished) < Double(Self.timeout), "the holder waited for its timeout")
        let endedAfterResponse = result.standardError.contains("mdoc-holder: the connection ended after the response")
        if phase == .responseReceived || (phase == .requestSent && endedAfterResponse) {
            // The response was delivered: a reader may simply go (ISO/IEC 18013-5 leaves the end
            // to either side). A reader that vanishes right after its request may still find the
            // response sent before the holder sees the link close, as on a radio link.
            #expect(result.status == 0, "\(result.standardError)")
            #expect(endedAfterResponse, "\(result.standardError)")
        } else {
            #expect(result.status == 8, "\(result.standardError)")
            #expect(result.standardError.contains("mdoc-holder: error: "), "\(result.standardError)")
        }
    }

    @Test(arguments: LinkKind.allCases, [ReaderPhase.connected, .started, .midRequest])
    func stalledReaderEndsTheHolderAtItsTimeout(over kind: LinkKind, at phase: ReaderPhase) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startHolder(link, timeout: Self.stallTimeout)
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: link)
        try await reader.run(until: phase)
        let stalled = Date()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        reader.close()
        let waited = Date().timeIntervalSince(stalled)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("within \(Self.stallTimeout) s"), "\(result.standardError)")
        #expect(waited < Double(Self.stallTimeout) + Self.stallSlack, "the holder took \(waited) s with --timeout \(Self.stallTimeout)")
    }

    /// One `--keep-running` holder meets every fault, and after each a real `mdoc-reader`
    /// verifies the next session; SIGTERM then ends it with status 0.
    @Test(arguments: LinkKind.allCases)
    func keepRunningHolderServesTheNextReaderAfterEveryFault(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startHolder(link, keepRunning: true)
        var engagement = 0
        var faults = 0
        func nextEngagement() async throws -> String {
            engagement += 1
            return try await Self.engagement(holder, engagement)
        }
        func verifyNextSession() async throws {
            try await Self.verifySession(try await nextEngagement(), over: link,
                                         context: "after \(faults) faults; holder: \(holder.standardError)")
        }

        let faultsTried = ChunkFault.allCases.filter { kind == .sim || $0 != .overLimit }
        for fault in faultsTried {
            let reader = try HostileReader(uri: try await nextEngagement(), link: link)
            try await reader.run(until: .started)
            try await reader.sendRequest(fault)
            faults += 1
            try await verifyNextSession()
            reader.close()
        }
        for phase in ReaderPhase.allCases where phase != .responseReceived {
            let uri = try await nextEngagement()
            let reader = try HostileReader(uri: uri, link: link)
            try await reader.run(until: phase)
            reader.close()
            if phase.isBeforeStart {
                // Not a session: the holder still waits on this engagement, for the next reader.
                try await Self.verifySession(uri, over: link, context: "after a central that left at \(phase)")
            } else {
                faults += 1
                try await verifyNextSession()
            }
        }

        holder.interrupt()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
        // A reader vanishing right after its request may still have been sent the response (see
        // readerVanishingEndsTheHolder): that session may count as ended normally.
        let counted = [faults, faults - 1].map { "mdoc-holder: interrupted after \(engagement) sessions (\($0) failed)" }
        #expect(counted.contains { result.standardError.contains($0) }, "\(result.standardError)")
        for fault in faultsTried {
            #expect(result.standardError.contains(Self.holderError(fault)), "\(fault)")
        }
    }

    // MARK: The reader under test

    /// Starts `mdoc-reader request` in peripheral mode on `uri`.
    static func startReader(_ uri: String, over link: any HostileLink,
                            timeout: Int = LinkFaultTests.timeout) throws -> BackgroundProgram {
        let arguments: [String] = [
            "request", uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--ble-mode", "peripheral",
            "--transport", link.transport, "--timeout", String(timeout),
        ]
        return try BackgroundProgram("mdoc-reader", arguments, environment: link.environment)
    }

    /// Nothing the reader printed on standard output claims a verified result.
    static func expectNothingVerified(_ result: ProgramRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.standardOutput.contains("VERIFIED"), "\(result.standardOutput)", sourceLocation: sourceLocation)
        #expect(!result.standardOutput.contains("age_over_18"), "\(result.standardOutput)", sourceLocation: sourceLocation)
    }

    @Test(arguments: chunkCases)
    func brokenResponseChunkingFailsTheReader(over kind: LinkKind, _ fault: ChunkFault) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try HostileHolder(link: link)
        let reader = try Self.startReader(holder.uri, over: link)
        try await holder.run(until: .requestReceived)
        let started = Date()
        try await holder.sendResponse(fault)
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)
        holder.close()

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-reader: error: "), "\(result.standardError)")
        #expect(result.standardError.contains(Self.readerError(fault)), "\(result.standardError)")
        #expect(Date().timeIntervalSince(started) < Double(Self.timeout), "the reader waited for its timeout")
        Self.expectNothingVerified(result)
    }

    /// A holder vanishing before the reader started the session (State 0x01) leaves the reader
    /// looking for it again until its time runs out (then it says what became of the link); after
    /// the start, the session fails at once.
    @Test(arguments: LinkKind.allCases, HolderPhase.allCases)
    func holderVanishingFailsTheReader(over kind: LinkKind, at phase: HolderPhase) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try HostileHolder(link: link)
        let reader = try Self.startReader(holder.uri, over: link, timeout: phase.isBeforeStart ? Self.stallTimeout : Self.timeout)
        try await holder.run(until: phase)
        let vanished = Date()
        holder.close()
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-reader: error: "), "\(result.standardError)")
        if phase == .accepted || phase == .mtuExchanged {
            #expect(result.standardError.contains(
                "within \(Self.stallTimeout) s: 1 link was made and dropped before the session started ("), "\(result.standardError)")
        }
        #expect(Date().timeIntervalSince(vanished) < Double(Self.timeout), "the reader waited for its timeout")
        Self.expectNothingVerified(result)
    }

    @Test(arguments: LinkKind.allCases, [HolderPhase.started, .requestReceived, .midResponse])
    func stalledHolderEndsTheReaderAtItsTimeout(over kind: LinkKind, at phase: HolderPhase) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try HostileHolder(link: link)
        let reader = try Self.startReader(holder.uri, over: link, timeout: Self.stallTimeout)
        try await holder.run(until: phase)
        let stalled = Date()
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)
        holder.close()
        let waited = Date().timeIntervalSince(stalled)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("within \(Self.stallTimeout) s"), "\(result.standardError)")
        #expect(waited < Double(Self.stallTimeout) + Self.stallSlack, "the reader took \(waited) s with --timeout \(Self.stallTimeout)")
        Self.expectNothingVerified(result)
    }
}
