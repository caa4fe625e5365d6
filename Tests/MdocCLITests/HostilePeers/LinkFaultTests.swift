import Foundation
import Testing

/// Faults on the link (ISO/IEC 18013-5 8.3.3.1.1), injected by hostile peers in this process
/// into sessions with the real `mdoc-holder` and `mdoc-reader` programs: broken chunking, a
/// peer that vanishes at each phase, and a peer that stalls. Every session must end with a clear
/// error and exit 8 within the program's `--timeout`, a reader must never print an unverified
/// result as verified, and a holder started with `--keep-running` must serve the next reader.
///
/// The peers speak ATT over a ``HostileLink``; these tests run over `sim`.
@Suite struct LinkFaultTests {
    static let link: any HostileLink = SimHostileLink()
    /// The `--timeout` of the programs in tests where the peer does not stall: generous, since
    /// the suite runs in parallel on two cores; the session must end long before it.
    static let timeout = 30
    /// The `--timeout` where the peer stalls, so the wait is what ends the session: long
    /// enough that the peer in this process, slowed by the synchronous tests that share its
    /// threads when the whole suite runs, still connects before the program gives up on it.
    static let stallTimeout = 20

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
    static func startHolder(timeout: Int = LinkFaultTests.timeout, keepRunning: Bool = false) throws -> BackgroundProgram {
        try LiveSession.makeDemoCredentialsPrivate()
        var arguments: [String] = [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "peripheral", "--no-qr",
            "--transport", link.transport, "--timeout", String(timeout),
        ]
        if keepRunning {
            arguments.append("--keep-running")
        }
        return try BackgroundProgram("mdoc-holder", arguments, environment: link.environment)
    }

    /// The holder's `number`th engagement.
    static func engagement(_ holder: BackgroundProgram, _ number: Int = 1) async throws -> String {
        try #require(await holder.awaitLine(startingWith: "mdoc:", number: number, timeout: LiveSession.waitTimeout),
                     "engagement \(number): \(holder.standardError)")
    }

    @Test(arguments: ChunkFault.allCases)
    func brokenRequestChunkingFailsTheHolder(_ fault: ChunkFault) async throws {
        let holder = try Self.startHolder()
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: Self.link)
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

    @Test(arguments: ReaderPhase.allCases)
    func readerVanishingEndsTheHolder(at phase: ReaderPhase) async throws {
        let holder = try Self.startHolder()
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: Self.link)
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

    @Test(arguments: [ReaderPhase.connected, .started, .midRequest])
    func stalledReaderEndsTheHolderAtItsTimeout(at phase: ReaderPhase) async throws {
        let holder = try Self.startHolder(timeout: Self.stallTimeout)
        let reader = try HostileReader(uri: try await Self.engagement(holder), link: Self.link)
        try await reader.run(until: phase)
        let stalled = Date()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        reader.close()
        let waited = Date().timeIntervalSince(stalled)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("within \(Self.stallTimeout) s"), "\(result.standardError)")
        #expect(waited < Double(Self.stallTimeout) + 10, "the holder took \(waited) s with --timeout \(Self.stallTimeout)")
    }

    /// One `--keep-running` holder meets every fault, and after each a real `mdoc-reader`
    /// verifies the next session; SIGTERM then ends it with status 0.
    @Test func keepRunningHolderServesTheNextReaderAfterEveryFault() async throws {
        let holder = try Self.startHolder(keepRunning: true)
        var engagement = 0
        var faults = 0
        func nextEngagement() async throws -> String {
            engagement += 1
            return try await Self.engagement(holder, engagement)
        }
        func verifyNextSession() async throws {
            let uri = try await nextEngagement()
            let arguments: [String] = [
                "request", uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--ble-mode", "peripheral",
                "--transport", Self.link.transport, "--timeout", String(Self.timeout),
            ]
            let reader = await (try BackgroundProgram("mdoc-reader", arguments, environment: Self.link.environment))
                .awaitExit(timeout: LiveSession.waitTimeout)
            #expect(reader.status == 0, "after \(faults) faults: \(reader.standardError)\nholder: \(holder.standardError)")
            #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(reader.standardOutput)")
        }

        for fault in ChunkFault.allCases {
            let reader = try HostileReader(uri: try await nextEngagement(), link: Self.link)
            try await reader.run(until: .started)
            try await reader.sendRequest(fault)
            faults += 1
            try await verifyNextSession()
            reader.close()
        }
        for phase in ReaderPhase.allCases where phase != .responseReceived {
            let reader = try HostileReader(uri: try await nextEngagement(), link: Self.link)
            try await reader.run(until: phase)
            reader.close()
            faults += 1
            try await verifyNextSession()
        }

        holder.interrupt()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-holder: interrupted after \(engagement) sessions (\(faults) failed)"),
                "\(result.standardError)")
        for fault in ChunkFault.allCases {
            #expect(result.standardError.contains(Self.holderError(fault)), "\(fault)")
        }
    }

    // MARK: The reader under test

    /// Starts `mdoc-reader request` in peripheral mode on `uri`.
    static func startReader(_ uri: String, timeout: Int = LinkFaultTests.timeout) throws -> BackgroundProgram {
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

    @Test(arguments: ChunkFault.allCases)
    func brokenResponseChunkingFailsTheReader(_ fault: ChunkFault) async throws {
        let holder = try HostileHolder(link: Self.link)
        let reader = try Self.startReader(holder.uri)
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

    @Test(arguments: HolderPhase.allCases)
    func holderVanishingFailsTheReader(at phase: HolderPhase) async throws {
        let holder = try HostileHolder(link: Self.link)
        let reader = try Self.startReader(holder.uri)
        try await holder.run(until: phase)
        let vanished = Date()
        holder.close()
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-reader: error: "), "\(result.standardError)")
        #expect(Date().timeIntervalSince(vanished) < Double(Self.timeout), "the reader waited for its timeout")
        Self.expectNothingVerified(result)
    }

    @Test(arguments: [HolderPhase.started, .requestReceived, .midResponse])
    func stalledHolderEndsTheReaderAtItsTimeout(at phase: HolderPhase) async throws {
        let holder = try HostileHolder(link: Self.link)
        let reader = try Self.startReader(holder.uri, timeout: Self.stallTimeout)
        try await holder.run(until: phase)
        let stalled = Date()
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)
        holder.close()
        let waited = Date().timeIntervalSince(stalled)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains("within \(Self.stallTimeout) s"), "\(result.standardError)")
        #expect(waited < Double(Self.stallTimeout) + 10, "the reader took \(waited) s with --timeout \(Self.stallTimeout)")
        Self.expectNothingVerified(result)
    }
}
