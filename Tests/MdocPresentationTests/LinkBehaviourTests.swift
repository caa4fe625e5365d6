import MdocBLE
import MdocCBOR
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

/// How the drivers' GATT servers and clients treat the centrals and servers they meet (ISO/IEC
/// 18013-5 8.3.3.1.1.4), with peers in this process over `sim` and over `hci:tcp` with Bumble
/// virtual controllers:
///
/// - a central is the session's peer only once it writes State 0x01: centrals that connect,
///   discover, subscribe and leave before, as phones' scanners and retrying readers do, leave
///   the holder (peripheral server mode) and the reader (central client mode) waiting for the
///   next, and one still connected when the peer starts is disconnected;
/// - a client that writes Client2Server before State 0x01 is dropped, and the next reader served;
/// - Server2Client notifications need Server2Client's subscription only, and a peer that never
///   subscribed to it is told so;
/// - the holder in central client mode connects again when the reader's link drops before the
///   session starts, and says what happened to the links, or to an Ident that differs.
@Suite(.timeLimit(.minutes(3)))
struct LinkBehaviourTests {
    // MARK: Centrals before the peer (peripheral server mode: the holder)

    @Test(arguments: LinkKind.allCases)
    func aCentralStillConnectedWhenTheReaderStartsIsDisconnected(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let holder = try await LinkFaultTests.startHolder(link)
        let lingering = try HostileReader(uri: holder.uri, link: link)
        defer { lingering.close() }
        try await lingering.run(until: .subscribed)
        try await LinkFaultTests.verifySession(holder.uri, over: link, context: "beside a central that stayed connected")
        try await lingering.awaitLinkEnd()
        #expect(await holder.result.end.isNormalEnd)
    }

    @Test("a client that writes Client2Server before State 0x01 is dropped, and the next reader is served")
    func dataBeforeTheStartDropsThatClient() async throws {
        let link = SimHostileLink()
        let holder = try await LinkFaultTests.startHolder(link)
        let uuid = try #require(try MdocURI(holder.uri).deviceEngagementBytes.value.bleOptions?.peripheralServerModeUUID)
        let client = try await ProbingCentral.probe(.peripheralServer, serviceUUID: uuid, over: link, subscribing: false)
        defer { client.close() }
        let characteristics = try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(uuid)))
        let client2Server = try #require(characteristics.first { $0.uuid == MdocGATTProfile.client2Server(mode: .peripheralServer) })
        try await client.writeWithoutResponse([0x00, 0xA0], to: client2Server)
        // Dropped: its link ends, and it was never the holder's reader.
        while try await client.nextNotification() != nil {}
        try await LinkFaultTests.verifySession(holder.uri, over: link, context: "after data before State 0x01")
        #expect(await holder.result.end == .session(.terminatedByReader))
    }

    @Test("a client that started but subscribed to nothing cannot stall the holder: its garbage ends the session")
    func aClientThatNeverSubscribesCannotStallTheHolder() async throws {
        let link = SimHostileLink()
        let clock = ManualClock()
        let holder = try await LinkFaultTests.startHolder(
            link, timeouts: SessionTimeouts(connection: .seconds(60), idle: LinkFaultTests.stall), clock: clock)
        let uuid = try #require(try MdocURI(holder.uri).deviceEngagementBytes.value.bleOptions?.peripheralServerModeUUID)
        let client = try await ProbingCentral.probe(.peripheralServer, serviceUUID: uuid, over: link, subscribing: false)
        defer { client.close() }
        let characteristics = try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(uuid)))
        let state = try #require(characteristics.first { $0.uuid == MdocGATTProfile.state(mode: .peripheralServer) })
        let client2Server = try #require(characteristics.first { $0.uuid == MdocGATTProfile.client2Server(mode: .peripheralServer) })
        // Started, but subscribed to nothing: the holder's answer (status 11 to this garbage)
        // can never be delivered.
        try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: state)
        try await client.writeWithoutResponse([0x00, 0xA0], to: client2Server)
        // The status message cannot go out: its bound, and the end's, run out in virtual time.
        let result = await clock.advancing(by: SessionLink.endTimeout) { await holder.result }
        guard case .session(.failed(let error)) = result.end else {
            Issue.record("the session did not fail: \(result.end)")
            return
        }
        #expect(error.code == .messageDecodingFailed, "\(result.end)")
    }

    // MARK: Centrals before the peer (central client mode: the reader)

    @Test(arguments: LinkKind.allCases)
    func centralsThatLeaveBeforeTheHolderStartsLeaveTheReaderWaiting(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let holder = try LateHolder()
        let radio = try await link.openRadio()
        let log = LogRecorder()
        let reader = try ReaderDriver(uri: try MdocURI(holder.uri), request: ageOver18, trustAnchors: [try DemoMaterial.iaca()],
                                      timeouts: generousTimeouts, logger: log.logger)
        async let read = reader.run(over: radio, mode: .centralClient)
        for (number, subscribing) in [false, true].enumerated() {
            let probe = try await ProbingCentral.probe(.centralClient, serviceUUID: holder.centralServiceUUID, over: link, subscribing: subscribing)
            probe.close()
            await log.waitFor(number + 1, containing: "a central left before starting the session")
        }
        let otherRadio = try await link.openOtherRadio()
        let presented = await holder.present(over: otherRadio, timeout: generousTimeouts.idle)
        await otherRadio.close()
        let result = await read
        await radio.close()

        #expect(presented.isNormalEnd, "\(presented)")
        #expect(result.report?.outcome == .verified, "\(result.end)")
    }

    // MARK: Subscriptions (Core Vol 3 Part G 3.3.3.3)

    @Test(arguments: LinkKind.allCases)
    func aReaderSubscribedToServer2ClientOnlyGetsTheResponse(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let holder = try await LinkFaultTests.startHolder(link)
        let reader = try HostileReader(uri: holder.uri, link: link, subscriptions: [.server2Client])
        try await reader.run(until: .responseReceived)
        reader.close()
        #expect(await holder.result.end == .session(.transportEnded))
    }

    @Test(arguments: LinkKind.allCases)
    func aReaderThatNeverSubscribesToServer2ClientIsToldSo(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let clock = ManualClock()
        let events = EventLog<HolderEvent>()
        let holder = try await LinkFaultTests.startHolder(
            link, timeouts: SessionTimeouts(connection: generousTimeouts.connection, idle: LinkFaultTests.stall), events: events, clock: clock)
        let reader = try HostileReader(uri: holder.uri, link: link, subscriptions: [.state])
        defer { reader.close() }
        try await reader.run(until: .requestSent)
        // The holder took the request and sends its response: that send's bound is what runs out.
        await events.wait { if case .sending = $0 { true } else { false } }
        let result = await clock.advancing(by: LinkFaultTests.stall) { await holder.result }
        #expect(result.end.description ==
            "the peer did not take the message to the reader \(LinkFaultTests.stallText): the GATT client started the session but never enabled notifications of Server2Client (it subscribed to State only), so the message could not be sent",
                "\(result.end)")
    }

    // MARK: The holder in central client mode: what happened to the link

    /// A holder offering central client mode only, over the link's side under test.
    static func startCentralHolder(
        _ link: any HostileLink, connection: Duration, log: LogRecorder = LogRecorder(), clock: any Clock<Duration> = ContinuousClock()
    ) async throws -> (uri: String, task: Task<HolderSessionResult, Never>) {
        let radio = try await link.openRadio()
        let driver = try demoHolder(modes: [.centralClient], timeouts: SessionTimeouts(connection: connection, idle: generousTimeouts.idle),
                                    log: log, clock: clock)
        return (driver.mdocURI.description, Task {
            let result = await driver.run(over: radio)
            await radio.close()
            return result
        })
    }

    @Test(arguments: LinkKind.allCases)
    func linksTheReaderDropsAreMadeAgainAndReportedAsSuch(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let (clock, log) = (ManualClock(), LogRecorder())
        let holder = try await Self.startCentralHolder(link, connection: LinkFaultTests.stall, log: log, clock: clock)
        let uuid = try #require(try MdocURI(holder.uri).deviceEngagementBytes.value.bleOptions?.centralClientModeUUID)
        // Two links, each dropped when Exchange MTU arrives: the holder connects again after
        // the first, and after the second finds nobody advertising until its time runs out, in
        // virtual time.
        for _ in 0..<2 {
            let bearer = try await link.accept(serviceUUID: uuid, timeout: .seconds(60))
            _ = try await ATTBearerInbox(bearer).receive()
            bearer.close()
        }
        await log.waitFor(2, containing: "the link dropped before the session started")
        await clock.sleeping(dueWithin: LinkFaultTests.stall)
        clock.advance(by: LinkFaultTests.stall)
        let result = await holder.task.value

        #expect(result.end.description.hasPrefix(
            "no reader started a session on service \(uuid) (central mode) \(LinkFaultTests.stallText): 2 links were made and dropped before the session started (the last "),
                "\(result.end)")
        #expect(result.end.description.contains(" s after it was made: the link ended while exchanging the ATT MTU: "), "\(result.end)")
    }

    @Test(arguments: LinkKind.allCases)
    func anIdentMismatchIsReportedWithBothValues(over kind: LinkKind) async throws {
        let link = try await kind.make()
        let holder = try await Self.startCentralHolder(link, connection: generousTimeouts.connection)
        let engagement = try MdocURI(holder.uri).deviceEngagementBytes.value
        let uuid = try #require(engagement.bleOptions?.centralClientModeUUID)
        let expected = try BLEIdent.compute(eDeviceKeyBytes: engagement.security.eDeviceKeyBytes)
        let served = expected.map { $0 ^ 0x5A }
        let server = MdocGATTServerTransport(mode: .centralClient, serviceUUID: uuid, ident: served,
                                             bearer: try await link.accept(serviceUUID: uuid, timeout: .seconds(60)))
        defer { server.close() }
        let result = await holder.task.value

        #expect(result.end.description.hasPrefix(
            "Ident mismatch on service \(uuid) (central mode): the reader's Ident \(Hex.encode(served)) differs from \(Hex.encode(expected)), derived from EDeviceKeyBytes"),
                "\(result.end)")
        #expect(!result.end.description.contains("within"), "\(result.end)")
    }
}
