import Foundation
import MdocBLE
import MdocSim
import MdocCBOR
import MdocModel
import MdocPresentation
import MdocTestPeers
import MdocTestSupport
import Testing

/// The programs themselves against hostile peers in this process, where what is tested is the
/// program: a `mdoc-holder --keep-running` that meets every link fault serves the next reader
/// each time and ends with status 0 on SIGTERM, and the `bluez` transport that leaves bluetoothd
/// advertising for centrals that leave before the session starts and unregisters everything.
/// The same faults against the session drivers, in one process, are MdocPresentationTests'
/// LinkFaultTests and LinkBehaviourTests.
@Suite struct HostileProgramTests {
    /// The `--timeout` of the programs: generous, since the suite runs in parallel on two
    /// cores; the session must end long before it.
    static let timeout = 30 * TimeoutScale.factor

    /// The engagement's BLE options.
    static func options(_ uri: String) throws -> BleOptions {
        try #require(try MdocURI(uri).deviceEngagementBytes.value.bleOptions)
    }

    /// Starts `mdoc-holder present` in peripheral server mode with `--yes`.
    static func startHolder(_ link: any HostileLink, timeout: Int = HostileProgramTests.timeout,
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
            .wait(timeout: LiveSession.waitTimeout)
        #expect(reader.status == 0, "\(context()): \(reader.standardError)", sourceLocation: sourceLocation)
        #expect(reader.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(reader.standardOutput)",
                sourceLocation: sourceLocation)
    }

    /// The holder's `number`th engagement.
    static func engagement(_ holder: BackgroundProgram, _ number: Int = 1) async throws -> String {
        try #require(await holder.line(startingWith: "mdoc:", number: number, timeout: LiveSession.waitTimeout),
                     "engagement \(number): \(holder.standardError)")
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

        // The last reader has its verified response once it sent its termination, which the
        // holder may not have read yet on a busy machine: its next engagement says that the
        // session ended and was counted.
        _ = try await Self.engagement(holder, engagement + 1)
        holder.interrupt()
        let result = await holder.wait(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
        // A reader vanishing right after its request may still have been sent the response (see
        // readerVanishingEndsTheHolder): that session may count as ended normally.
        let counted = [faults, faults - 1].map { "mdoc-holder: interrupted after \(engagement) sessions (\($0) failed)" }
        #expect(counted.contains { result.standardError.contains($0) }, "\(result.standardError)")
        for fault in faultsTried {
            #expect(result.standardError.contains(fault.holderFailure), "\(fault)")
        }
    }

    /// Starts `mdoc-reader request` in peripheral mode on `uri`.
    static func startReader(_ uri: String, over link: any HostileLink,
                            timeout: Int = HostileProgramTests.timeout) throws -> BackgroundProgram {
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

    // MARK: Through bluetoothd

    @Test(arguments: MdocBLEMode.allCases)
    func centralsThatLeaveBeforeThePeerStartsLeaveTheBlueZServerAdvertising(mode: MdocBLEMode) async throws {
        let namespace = SimHostileLink().environment[SimLink.namespaceVariable] ?? ""
        let bluetoothd = try BlueZSessionTests.Bluetoothd(namespace: namespace)
        let link = SimHostileLink()
        let server: BackgroundProgram
        let lateHolder: LateHolder?
        let uri: String
        let uuid: UUID
        switch mode {
        case .peripheralServer:
            server = try BackgroundProgram("mdoc-holder", [
                "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "peripheral", "--no-qr",
                "--transport", "bluez", "--timeout", String(Self.timeout),
            ], environment: bluetoothd.environment)
            uri = try await Self.engagement(server)
            uuid = try #require(try Self.options(uri).peripheralServerModeUUID)
            lateHolder = nil
        case .centralClient:
            let holder = try LateHolder()
            server = try BackgroundProgram("mdoc-reader", [
                "request", holder.uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--ble-mode", "central",
                "--transport", "bluez", "--timeout", String(Self.timeout),
            ], environment: bluetoothd.environment)
            uri = holder.uri
            uuid = holder.centralServiceUUID
            lateHolder = holder
        }
        for subscribing in [false, true] {
            let probe = try await ProbingCentral.probe(mode, serviceUUID: uuid, over: link, subscribing: subscribing)
            probe.close()
        }
        if let lateHolder {
            let outcome = await lateHolder.present(over: SimAdapter(), timeout: .seconds(Int64(Self.timeout)))
            #expect(outcome.isNormalEnd, "\(outcome)")
        } else {
            try await Self.verifySession(uri, over: link, context: "after centrals that left")
        }
        let result = await server.wait(timeout: LiveSession.waitTimeout)
        let report = bluetoothd.stop()

        #expect(result.status == 0, "\(result.standardError)")
        // Advertised once, until the peer started the session; everything unregistered.
        #expect(report.filter { $0.hasPrefix("registered advertisement ") }.count == 1, "\(report)")
        #expect(report.filter { $0.hasPrefix("unregistered advertisement ") }.count == 1, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }
}
