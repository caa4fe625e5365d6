import Foundation
import MdocBLE
import MdocSim
import MdocTestSupport
import NIOConcurrencyHelpers
import NIOCore
@testable import MdocPresentation
import Testing

/// An ATT bearer over the sim link that a test can freeze: once frozen, what the peer sends is
/// held back, as from a peer that stopped answering (its requests then time out).
final class FreezableBearer: ATTBearer {
    private let inner: SimBearer
    private let frozen = NIOLockedValueBox(false)

    init(_ inner: SimBearer) {
        self.inner = inner
    }

    var eventLoop: any EventLoop { inner.eventLoop }
    var maximumPDUSize: Int { inner.maximumPDUSize }

    /// Holds back received PDUs from now on.
    func freeze() {
        frozen.withLockedValue { $0 = true }
    }

    func send(_ pdus: [[UInt8]]) -> EventLoopFuture<Void> {
        inner.send(pdus)
    }

    func attach(_ consumer: ATTBearerConsumer) {
        let frozen = frozen
        inner.attach(ATTBearerConsumer(
            received: { pdu in if !frozen.withLockedValue({ $0 }) { consumer.received(pdu) } },
            ended: consumer.ended))
    }

    func close() {
        inner.close()
    }
}

/// The drivers' bounded waits over real 18013-5 transports on the sim link (ISO/IEC 18013-5
/// 8.3.3.1.1.5): a wait that runs out ends the link with State 0x02 before closing it, within
/// ``SessionLink/endTimeout``, and a send that cannot go out says why. The bounds run in virtual
/// time: the test moves a ``ManualClock`` past them once the link waits on it.
@Suite("DriverLink: bounded waits end the link in order (ISO/IEC 18013-5 8.3.3.1.1.5)", .timeLimit(.minutes(1)))
struct DriverLinkTests {
    /// A GATT server and client transport in peripheral server mode over a fresh sim link; the
    /// server's bearer can be frozen.
    static func connect() async throws -> (server: MdocGATTServerTransport, client: MdocGATTClientTransport, serverBearer: FreezableBearer) {
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        defer { advertiser.stop() }
        let connected = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(20))
        let bearer = FreezableBearer(try await advertiser.accept(timeout: .seconds(20)))
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: uuid, bearer: bearer)
        let client = try await MdocGATTClientTransport(mode: .peripheralServer, serviceUUID: uuid, bearer: connected)
        try await server.waitForStart()
        return (server, client, bearer)
    }

    /// The failure of a wait on `transport` for `what` bounded by `first` on `clock`, nil when an
    /// event came.
    static func failure(of transport: any MdocTransport, within first: Duration, awaiting what: String, clock: ManualClock) async -> LinkError? {
        await DriverLink.run(transport, timeouts: SessionTimeouts(connection: first, idle: first), clock: clock) { link, _ in
            guard case .failed(let error) = await link.next(within: first, awaiting: what) else { return nil }
            return error
        }
    }

    /// The failure of a wait bounded by `first` that runs out: the clock is moved past the bound
    /// once the wait is on it.
    static func runOut(_ transport: any MdocTransport, within first: Duration, awaiting what: String) async -> LinkError? {
        let clock = ManualClock()
        async let failure = failure(of: transport, within: first, awaiting: what, clock: clock)
        await clock.sleeping(dueWithin: first)
        clock.advance(by: first)
        return await failure
    }

    @Test("a GATT client whose wait runs out writes State 0x02, then closes the link")
    func clientWaitEndsWithState() async throws {
        let (server, client, _) = try await Self.connect()
        defer { server.close() }
        let error = await Self.runOut(client, within: .milliseconds(300), awaiting: "message from the holder")
        #expect(error?.code == .timeout)
        #expect(error?.reason == "no message from the holder within 0.3 s")
        #expect(try await server.receive() == .ended)
        #expect(try await server.receive() == .disconnected)
    }

    @Test("a GATT server whose wait runs out notifies State 0x02, then closes the link")
    func serverWaitEndsWithState() async throws {
        let (server, client, _) = try await Self.connect()
        defer { client.close() }
        let error = await Self.runOut(server, within: .milliseconds(300), awaiting: "message from the reader")
        #expect(error?.code == .timeout)
        #expect(try await client.receive() == .ended)
        #expect(try await client.receive() == .disconnected)
    }

    @Test("ending a link whose peer stopped answering is cut at endTimeout, not at the 30 s ATT transaction timeout")
    func endIsBounded() async throws {
        let (server, client, serverBearer) = try await Self.connect()
        defer { server.close() }
        serverBearer.freeze()
        let clock = ManualClock()
        async let failure = Self.failure(of: client, within: .milliseconds(100), awaiting: "message from the holder", clock: clock)
        await clock.sleeping(dueWithin: .milliseconds(100))
        clock.advance(by: .milliseconds(100))
        // The unsubscription before State 0x02 gets no answer: the end waits on its bound.
        await clock.sleeping(dueWithin: SessionLink.endTimeout)
        clock.advance(by: SessionLink.endTimeout)
        let error = await failure
        #expect(error?.code == .timeout)
        // The link was closed at the end's bound, far from the ATT transaction timeout.
        #expect(clock.now.offset == .milliseconds(100) + SessionLink.endTimeout)
        #expect(try await client.receive() == .disconnected)
    }

    @Test("a send that runs out because the client never subscribed to Server2Client says so")
    func sendToAClientWithoutServer2Client() async throws {
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        defer { advertiser.stop() }
        let connected = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(20))
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: uuid,
                                             bearer: try await advertiser.accept(timeout: .seconds(20)))
        let client = GATTClient(bearer: connected)
        defer { client.close() }
        let characteristics = try await client.discoverCharacteristics(of: try await client.discoverPrimaryService(BluetoothUUID(uuid)))
        let state = try #require(characteristics.first { $0.uuid == MdocGATTProfile.state(mode: .peripheralServer) })
        try await client.setNotifications(true, for: state)
        try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: state)
        try await server.waitForStart()
        let clock = ManualClock()
        async let sending: LinkError? = {
            do throws(LinkError) {
                try await SessionLink.send([1, 2, 3], on: server, within: .milliseconds(300), sending: "the response", clock: clock)
                return nil
            } catch {
                return error
            }
        }()
        await clock.sleeping(dueWithin: .milliseconds(300))
        clock.advance(by: .milliseconds(300))
        let failure = await sending
        #expect(failure?.code == .timeout)
        #expect(failure?.reason == "the peer did not take the response within 0.3 s: the GATT client started the session but never enabled notifications of Server2Client (it subscribed to State only), so the message could not be sent")
    }
}
