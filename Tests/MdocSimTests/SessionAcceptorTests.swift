#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import MdocBLE
@testable import MdocSim
import MdocTestSupport
import Testing

/// The GATT server's wait for its peer over the sim link (ISO/IEC 18013-5 8.3.3.1.1.4): the
/// first central to write State 0x01 is the session's; centrals that connect and leave before,
/// as phones' scanners and retrying readers do, change nothing.
@Suite("The GATT server takes the central that starts the session (ISO/IEC 18013-5 8.3.3.1.1.4)", .timeLimit(.minutes(1)))
struct SessionAcceptorTests {
    static let ident = MdocTransportTests.ident

    /// The GATT server's side of `mode`: the holder in peripheral server mode, the reader in
    /// central client mode.
    static func server(_ mode: MdocBLEMode, uuid: UUID, timeout: Duration = .seconds(20)) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await MdocBLEConnector.holder(mode: mode, serviceUUID: uuid, ident: ident, timeout: timeout, over: SimAdapter())
        case .centralClient:
            return try await MdocBLEConnector.reader(mode: mode, serviceUUID: uuid, ident: ident, timeout: timeout, over: SimAdapter())
        }
    }

    /// The GATT client's side of `mode`, the real peer.
    static func client(_ mode: MdocBLEMode, uuid: UUID) async throws(BLEError) -> any MdocTransport {
        switch mode {
        case .peripheralServer:
            return try await MdocBLEConnector.reader(mode: mode, serviceUUID: uuid, ident: ident, timeout: .seconds(20), over: SimAdapter())
        case .centralClient:
            return try await MdocBLEConnector.holder(mode: mode, serviceUUID: uuid, ident: ident, timeout: .seconds(20), over: SimAdapter())
        }
    }

    /// The error `body` throws, nil when it returns.
    static func failure<T>(_ body: () async throws(BLEError) -> T) async -> BLEError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    /// A central that connects, exchanges MTUs and discovers the service.
    static func probe(_ mode: MdocBLEMode, uuid: UUID) async throws -> ManualMdocClient {
        let bearer = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(20))
        return try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: bearer)
    }

    @Test("centrals that connect, discover, subscribe and leave before State 0x01 do not end the wait; the next one that starts is the peer",
          arguments: MdocBLEMode.allCases)
    func probesBeforeThePeer(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        async let serverSide = Self.server(mode, uuid: uuid)
        let discovering = try await Self.probe(mode, uuid: uuid)
        discovering.client.close()
        let subscribing = try await Self.probe(mode, uuid: uuid)
        try await subscribing.client.setNotifications(true, for: subscribing.state)
        try await subscribing.client.setNotifications(true, for: subscribing.server2Client)
        subscribing.client.close()
        let client = try await Self.client(mode, uuid: uuid)
        let server = try await serverSide
        defer { server.close() }
        try await client.send([1, 2, 3])
        #expect(try await server.receive() == .message([1, 2, 3]))
        try await server.send([4])
        #expect(try await client.receive() == .message([4]))
        await client.end()
        #expect(try await server.receive() == .ended)
    }

    @Test("a central still connected when another starts the session is disconnected, and nobody connects after",
          arguments: MdocBLEMode.allCases)
    func othersAreRefused(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        async let serverSide = Self.server(mode, uuid: uuid)
        let lingering = try await Self.probe(mode, uuid: uuid)
        defer { lingering.client.close() }
        let client = try await Self.client(mode, uuid: uuid)
        defer { client.close() }
        let server = try await serverSide
        defer { server.close() }
        #expect(try await lingering.client.nextNotification() == nil)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await SimLink.connect(serviceUUID: uuid, timeout: .milliseconds(200))
        } == .peerNotFound)
        try await client.send([9])
        #expect(try await server.receive() == .message([9]))
    }

    @Test("a central writing Client2Server before State 0x01 is dropped and the wait goes on", arguments: MdocBLEMode.allCases)
    func dataBeforeStartDropsTheCentral(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        async let serverSide = Self.server(mode, uuid: uuid)
        let early = try await Self.probe(mode, uuid: uuid)
        defer { early.client.close() }
        try await early.client.writeWithoutResponse([0x00, 0xA0], to: early.client2Server)
        #expect(try await early.client.nextNotification() == nil)
        let client = try await Self.client(mode, uuid: uuid)
        defer { client.close() }
        let server = try await serverSide
        defer { server.close() }
        try await client.send([5])
        #expect(try await server.receive() == .message([5]))
    }

    @Test("when the time runs out with centrals that never started, sessionNotStarted says what they did")
    func timeoutSaysWhatCentralsDid() async throws {
        let uuid = UUID()
        async let serverSide = Self.failure { () throws(BLEError) in
            try await Self.server(.peripheralServer, uuid: uuid, timeout: .seconds(5 * TimeoutScale.factor))
        }
        let left = try await Self.probe(.peripheralServer, uuid: uuid)
        left.client.close()
        let staying = try await Self.probe(.peripheralServer, uuid: uuid)
        defer { staying.client.close() }
        let error = try #require(await serverSide)
        #expect(error.code == .sessionNotStarted)
        #expect(error.reason.hasPrefix("1 central connected and left without starting the session (the last after "), "\(error.reason)")
        #expect(error.reason.hasSuffix("; 1 central was still connected without having written State 0x01"), "\(error.reason)")
        #expect(try await staying.client.nextNotification() == nil)
        // Nobody at all: the adapter's timeout.
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await Self.server(.peripheralServer, uuid: UUID(), timeout: .milliseconds(100))
        } == .timeout)
    }
}
