#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import MdocBLE
@testable import MdocSim
import MdocTestSupport
import Testing
import NIOConcurrencyHelpers

/// The GATT client's side over the sim link when the server's links drop before the session
/// starts (ISO/IEC 18013-5 8.3.3.1.1.4): it connects again, up to
/// ``MdocBLEConnector/maximumConnectionAttempts`` links and while its time lasts.
@Suite("A GATT client connects again when its link drops before the session starts", .timeLimit(.minutes(1)))
struct ClientReconnectionTests {
    static let ident = MdocTransportTests.ident

    /// Advertises `uuid` and ends the first `drops` links as soon as the client's first PDU
    /// (Exchange MTU) arrives; then, when `serving`, serves the next as the reader in central
    /// client mode.
    static func server(uuid: UUID, drops: Int, serving: Bool) async throws -> MdocGATTServerTransport? {
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        defer { advertiser.stop() }
        for index in 0..<drops {
            let bearer = try await advertiser.accept(timeout: .seconds(20 * TimeoutScale.factor))
            _ = try await ATTBearerInbox(bearer).receive()
            // Not serving: advertising ends before the last link does, so the client's next
            // attempt finds nobody.
            if index == drops - 1, !serving { await advertiser.stopAndRelease() }
            bearer.close()
        }
        guard serving else { return nil }
        let server = MdocGATTServerTransport(mode: .centralClient, serviceUUID: uuid, ident: ident,
                                             bearer: try await advertiser.accept(timeout: .seconds(20 * TimeoutScale.factor)))
        try await server.waitForStart()
        return server
    }

    /// The holder's side in central client mode over sim, within `timeout`.
    static func holder(uuid: UUID, timeout: Duration = .seconds(20)) async throws(BLEError) -> any MdocTransport {
        try await MdocBLEConnector.holder(mode: .centralClient, serviceUUID: uuid, ident: ident, timeout: timeout, over: SimAdapter())
    }

    @Test("the last of maximumConnectionAttempts links is served after the others dropped")
    func servedAtTheLastAttempt() async throws {
        let uuid = UUID()
        async let serverSide = Self.server(uuid: uuid, drops: MdocBLEConnector.maximumConnectionAttempts - 1, serving: true)
        let holder = try await Self.holder(uuid: uuid)
        defer { holder.close() }
        let server = try #require(try await serverSide)
        defer { server.close() }
        try await server.send([1, 2])
        #expect(try await holder.receive() == .message([1, 2]))
    }

    @Test("after maximumConnectionAttempts links that dropped, the client gives up saying so")
    func givesUpAfterTheLastAttempt() async throws {
        let uuid = UUID()
        async let serverSide = Self.server(uuid: uuid, drops: MdocBLEConnector.maximumConnectionAttempts, serving: false)
        let error = await SessionAcceptorTests.failure { () throws(BLEError) in try await Self.holder(uuid: uuid) }
        _ = try await serverSide
        #expect(error?.code == .linkClosed)
        #expect(error?.reason.hasPrefix(
            "\(MdocBLEConnector.maximumConnectionAttempts) links were made and dropped before the session started (the last ") == true,
                "\(error?.reason ?? "")")
        #expect(error?.reason.contains(" after it was made: the link ended while exchanging the ATT MTU: ") == true, "\(error?.reason ?? "")")
    }

    @Test("when the time runs out after a link dropped, sessionNotStarted says how it ended")
    func timeRunsOutAfterADrop() async throws {
        let uuid = UUID()
        async let serverSide = Self.server(uuid: uuid, drops: 1, serving: false)
        // Long enough for the first link to be made on a loaded machine; then the time runs out
        // while the client looks for the advertiser, which is gone.
        let timeout = Duration.seconds(8 * TimeoutScale.factor)
        let error = await SessionAcceptorTests.failure { () throws(BLEError) in try await Self.holder(uuid: uuid, timeout: timeout) }
        _ = try await serverSide
        #expect(error?.code == .sessionNotStarted)
        #expect(error?.reason.hasPrefix("1 link was made and dropped before the session started (") == true, "\(error?.reason ?? "")")
    }

    @Test("a link that ends as soon as it is made, before the adapter hands it over, is connected again")
    func linkEndedAsItWasMadeIsConnectedAgain() async throws {
        let uuid = UUID()
        let adapter = LinksEndingAtOnce(endingFirst: 2)
        async let serverSide = Self.server(uuid: uuid, drops: 0, serving: true)
        let holder = try await MdocBLEConnector.holder(mode: .centralClient, serviceUUID: uuid, ident: Self.ident,
                                                       timeout: .seconds(20), over: adapter)
        defer { holder.close() }
        let server = try #require(try await serverSide)
        defer { server.close() }
        #expect(adapter.attempts.withLockedValue { $0 } == 3)
        try await server.send([3])
        #expect(try await holder.receive() == .message([3]))
    }

    @Test("an Ident mismatch is not retried")
    func identMismatchIsFinal() async throws {
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        defer { advertiser.stop() }
        async let holderSide = SessionAcceptorTests.failure { () throws(BLEError) in try await Self.holder(uuid: uuid) }
        let other = MdocGATTServerTransport(mode: .centralClient, serviceUUID: uuid, ident: Self.ident.map { $0 ^ 1 },
                                            bearer: try await advertiser.accept(timeout: .seconds(20 * TimeoutScale.factor)))
        defer { other.close() }
        let error = await holderSide
        #expect(error?.code == .identMismatch)
        #expect(try await other.receive() == .disconnected)
    }
}

/// The sim adapter, except that its first links end as soon as they are made, the way the LE
/// host reports a link whose Disconnection Complete came with its Connection Complete: `connect`
/// throws `linkClosed` before any bearer is handed over.
private final class LinksEndingAtOnce: BLEAdapter {
    let endingFirst: Int
    let attempts = NIOLockedValueBox(0)
    private let sim = SimAdapter()

    init(endingFirst: Int) {
        self.endingFirst = endingFirst
    }

    func failure() async -> BLEError? {
        await RadioFailureSignal().failure()
    }

    func connect(serviceUUID: UUID, timeout: Duration) async throws(BLEError) -> any ATTBearer {
        let attempt = attempts.withLockedValue { count in
            count += 1
            return count
        }
        guard attempt > endingFirst else {
            throw BLEError(.linkClosed, "the link to the peer ended as soon as it was made")
        }
        return try await sim.connect(serviceUUID: serviceUUID, timeout: timeout)
    }

    func advertise(serviceUUID: UUID) async throws(BLEError) -> any BLEAdvertisement {
        try await sim.advertise(serviceUUID: serviceUUID)
    }

    func scan(for duration: Duration) async throws(BLEError) -> [BLEPeripheralSighting] {
        try await sim.scan(for: duration)
    }

    func close() async {}
}
