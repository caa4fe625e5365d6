import Foundation
import MdocBLE
import MdocCBOR
import MdocModel
import MdocSession
import MdocTestSupport
import MdocPresentation
import MdocTestPeers
import Testing

/// How the programs' GATT servers and clients treat the centrals and servers they meet (ISO/IEC
/// 18013-5 8.3.3.1.1.4), with peers in this process over `sim` and over `hci:tcp` with Bumble
/// virtual controllers, and through the stand-in bluetoothd:
///
/// - a central is the session's peer only once it writes State 0x01: centrals that connect,
///   discover, subscribe and leave before, as phones' scanners and retrying readers do, leave
///   the holder (peripheral server mode) and the reader (central client mode) waiting for the
///   next, and one still connected when the peer starts is disconnected;
/// - Server2Client notifications need Server2Client's subscription only, and a peer that never
///   subscribed to it is told so;
/// - the holder in central client mode connects again when the reader's link drops before the
///   session starts, and says what happened to the links, or to an Ident that differs.
@Suite struct LinkBehaviourTests {
    /// The `--timeout` where nothing should stall: generous, the session ends long before.
    static let timeout = LinkFaultTests.timeout
    /// The `--timeout` where the peer stalls, so the wait is what ends the session.
    static let stallTimeout = LinkFaultTests.stallTimeout

    /// The engagement's BLE options.
    static func options(_ uri: String) throws -> BleOptions {
        try #require(try MdocURI(uri).deviceEngagementBytes.value.bleOptions)
    }

    /// A central that connects to the GATT server of `serviceUUID` in `mode`, exchanges MTUs,
    /// discovers the service and, when `subscribing`, reads Ident (central client mode) and
    /// enables State and Server2Client notifications; it never writes State 0x01.
    static func probe(_ mode: MdocBLEMode, serviceUUID: UUID, over link: any HostileLink, subscribing: Bool) async throws -> GATTClient {
        let client = GATTClient(bearer: try await link.connect(serviceUUID: serviceUUID, timeout: .seconds(60)))
        _ = try await client.exchangeMTU(MdocGATTClientTransport.requestedMTU)
        let characteristics = try await client.discoverCharacteristics(
            of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        if subscribing {
            if mode == .centralClient, let ident = characteristics.first(where: { $0.uuid == MdocGATTProfile.ident }) {
                _ = try await client.read(ident)
            }
            for uuid in [MdocGATTProfile.state(mode: mode), MdocGATTProfile.server2Client(mode: mode)] {
                try await client.setNotifications(true, for: try #require(characteristics.first { $0.uuid == uuid }))
            }
        }
        return client
    }

    // MARK: Centrals before the peer (peripheral server mode: the holder)

    @Test(arguments: LinkKind.allCases)
    func aCentralStillConnectedWhenTheReaderStartsIsDisconnected(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try LinkFaultTests.startHolder(link)
        let uri = try await LinkFaultTests.engagement(holder)
        let lingering = try HostileReader(uri: uri, link: link)
        defer { lingering.close() }
        try await lingering.run(until: .subscribed)
        try await LinkFaultTests.verifySession(uri, over: link, context: "beside a central that stayed connected")
        try await lingering.awaitLinkEnd()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
    }

    // MARK: Centrals before the peer (central client mode: the reader)

    @Test(arguments: LinkKind.allCases)
    func centralsThatLeaveBeforeTheHolderStartsLeaveTheReaderWaiting(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try LateHolder()
        let reader = try BackgroundProgram("mdoc-reader", [
            "request", holder.uri, "--preset", "age-over-18", "--trust", "Certs/demo/iaca.pem", "--ble-mode", "central",
            "--transport", link.transport, "--timeout", String(Self.timeout), "--log-level", "info",
        ], environment: link.environment)
        for (number, subscribing) in [false, true].enumerated() {
            let probe = try await Self.probe(.centralClient, serviceUUID: holder.centralServiceUUID, over: link, subscribing: subscribing)
            probe.close()
            #expect(await reader.awaitStandardError(containing: "a central left before starting the session", count: number + 1,
                                                    timeout: LiveSession.waitTimeout), "\(reader.standardError)")
        }
        let radio = try await link.openOtherRadio()
        let outcome = await holder.present(over: radio, timeout: .seconds(Int64(Self.timeout)))
        await radio.close()
        let result = await reader.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(outcome.isNormalEnd, "\(outcome)")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Document 0: org.iso.18013.5.1.mDL: VERIFIED"), "\(result.standardOutput)")
    }

    // MARK: Subscriptions (Core Vol 3 Part G 3.3.3.3)

    @Test(arguments: LinkKind.allCases)
    func aReaderSubscribedToServer2ClientOnlyGetsTheResponse(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try LinkFaultTests.startHolder(link)
        let reader = try HostileReader(uri: try await LinkFaultTests.engagement(holder), link: link, subscriptions: [.server2Client])
        try await reader.run(until: .responseReceived)
        reader.close()
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("mdoc-holder: the connection ended after the response"), "\(result.standardError)")
    }

    @Test(arguments: LinkKind.allCases)
    func aReaderThatNeverSubscribesToServer2ClientIsToldSo(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try LinkFaultTests.startHolder(link, timeout: Self.stallTimeout)
        let reader = try HostileReader(uri: try await LinkFaultTests.engagement(holder), link: link, subscriptions: [.state])
        defer { reader.close() }
        try await reader.run(until: .requestSent)
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(
            "the peer did not take the message to the reader within \(Self.stallTimeout) s: the GATT client started the session but never enabled notifications of Server2Client (it subscribed to State only), so the message could not be sent"),
                "\(result.standardError)")
    }

    // MARK: The holder in central client mode: what happened to the link

    /// Starts `mdoc-holder present` offering central client mode only.
    static func startCentralHolder(_ link: any HostileLink, timeout: Int = LinkBehaviourTests.timeout) throws -> BackgroundProgram {
        return try BackgroundProgram("mdoc-holder", [
            "present", "--credential", "Certs/demo/mdl.mdoc", "--yes", "--ble-mode", "central", "--no-qr",
            "--transport", link.transport, "--timeout", String(timeout),
        ], environment: link.environment)
    }

    @Test(arguments: LinkKind.allCases)
    func linksTheReaderDropsAreMadeAgainAndReportedAsSuch(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startCentralHolder(link, timeout: Self.stallTimeout)
        let uuid = try #require(try Self.options(try await LinkFaultTests.engagement(holder)).centralClientModeUUID)
        // Two links, each dropped when Exchange MTU arrives: the holder connects again after
        // the first, and after the second finds nobody advertising until its time runs out.
        for _ in 0..<2 {
            let bearer = try await link.accept(serviceUUID: uuid, timeout: .seconds(60))
            _ = try await bearer.receive()
            bearer.close()
        }
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)

        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-holder: error: no reader started a session on service \(uuid) (central mode) within \(Self.stallTimeout) s: 2 links were made and dropped before the session started (the last "),
                "\(result.standardError)")
        #expect(result.standardError.contains(" s after it was made: the link ended while exchanging the ATT MTU: "), "\(result.standardError)")
    }

    @Test(arguments: LinkKind.allCases)
    func anIdentMismatchIsReportedWithBothValues(over kind: LinkKind) async throws {
        let link = try await kind.make()
        defer { withExtendedLifetime(link) {} }
        let holder = try Self.startCentralHolder(link)
        let engagement = try MdocURI(try await LinkFaultTests.engagement(holder)).deviceEngagementBytes.value
        let uuid = try #require(engagement.bleOptions?.centralClientModeUUID)
        let expected = try BLEIdent.compute(eDeviceKeyBytes: engagement.security.eDeviceKeyBytes)
        let served = expected.map { $0 ^ 0x5A }
        let server = MdocGATTServerTransport(mode: .centralClient, serviceUUID: uuid, ident: served,
                                             bearer: try await link.accept(serviceUUID: uuid, timeout: .seconds(60)))
        defer { server.close() }
        let result = await holder.awaitExit(timeout: LiveSession.waitTimeout)

        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(result.status == 8, "\(result.standardError)")
        #expect(result.standardError.contains(
            "mdoc-holder: error: Ident mismatch on service \(uuid) (central mode): the reader's Ident \(hex(served)) differs from \(hex(expected)), derived from EDeviceKeyBytes"),
                "\(result.standardError)")
        #expect(!result.standardError.contains("within"), "\(result.standardError)")
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
            uri = try await LinkFaultTests.engagement(server)
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
            let probe = try await Self.probe(mode, serviceUUID: uuid, over: link, subscribing: subscribing)
            probe.close()
        }
        if let lateHolder {
            let outcome = await lateHolder.present(over: SimAdapter(), timeout: .seconds(Int64(Self.timeout)))
            #expect(outcome.isNormalEnd, "\(outcome)")
        } else {
            try await LinkFaultTests.verifySession(uri, over: link, context: "after centrals that left")
        }
        let result = await server.awaitExit(timeout: LiveSession.waitTimeout)
        let report = bluetoothd.stop()

        #expect(result.status == 0, "\(result.standardError)")
        // Advertised once, until the peer started the session; everything unregistered.
        #expect(report.filter { $0.hasPrefix("registered advertisement ") }.count == 1, "\(report)")
        #expect(report.filter { $0.hasPrefix("unregistered advertisement ") }.count == 1, "\(report)")
        #expect(report.last == "registrations 0", "\(report)")
    }
}
