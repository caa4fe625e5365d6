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

/// A GATT client driven step by step, to play a misbehaving or slow 18013-5 client.
struct ManualMdocClient {
    let client: GATTClient
    let state: GATTRemoteCharacteristic
    let client2Server: GATTRemoteCharacteristic
    let server2Client: GATTRemoteCharacteristic

    /// Exchanges MTUs and discovers the service, subscribing to nothing.
    static func discover(mode: MdocBLEMode, serviceUUID: UUID, bearer: SimBearer) async throws -> ManualMdocClient {
        let client = GATTClient(bearer: bearer)
        _ = try await client.exchangeMTU(515)
        let characteristics = try await client.discoverCharacteristics(
            of: try await client.discoverPrimaryService(BluetoothUUID(serviceUUID)))
        func find(_ uuid: BluetoothUUID) throws -> GATTRemoteCharacteristic {
            try #require(characteristics.first { $0.uuid == uuid })
        }
        return ManualMdocClient(client: client, state: try find(MdocGATTProfile.state(mode: mode)),
                                client2Server: try find(MdocGATTProfile.client2Server(mode: mode)),
                                server2Client: try find(MdocGATTProfile.server2Client(mode: mode)))
    }

    /// The whole start: subscriptions and State 0x01.
    func start() async throws {
        try await client.setNotifications(true, for: state)
        try await client.setNotifications(true, for: server2Client)
        try await client.writeWithoutResponse([MdocGATTProfile.stateStart], to: state)
    }
}

/// Set by a task when it got past a point.
final class SentFlag: Sendable {
    let value = NIOLockedValueBox(false)
}

@Suite("18013-5 GATT transports over the sim link, both modes (ISO/IEC 18013-5 8.3.3.1.1)", .timeLimit(.minutes(1)))
struct MdocTransportTests {
    static let ident: [UInt8] = Array(100..<116)

    static func message(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 13) ^ seed }
    }

    /// A server and a client transport in `mode` over a fresh sim link.
    static func connect(mode: MdocBLEMode, ident: [UInt8]? = MdocTransportTests.ident,
                        expectedIdent: [UInt8]? = MdocTransportTests.ident) async throws
        -> (server: MdocGATTServerTransport, client: MdocGATTClientTransport) {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: ident, bearer: accepted)
        let client = try await MdocGATTClientTransport(mode: mode, serviceUUID: uuid, expectedIdent: expectedIdent,
                                                       bearer: connected)
        return (server, client)
    }

    @Test("a 20 KB message each way, several in order; ATT_MTU 515", arguments: MdocBLEMode.allCases)
    func messagesBothWays(mode: MdocBLEMode) async throws {
        let (server, client) = try await Self.connect(mode: mode)
        defer {
            server.close()
            client.close()
        }
        #expect(client.mtu == 515)
        let request = Self.message(20 * 1024, seed: 0x5A)
        let response = Self.message(20 * 1024 + 7, seed: 0xA5)
        try await client.send(request)
        #expect(try await server.receive() == .message(request))
        try await server.send(response)
        #expect(try await client.receive() == .message(response))

        let small = (0..<5).map { Self.message($0 * 600, seed: UInt8($0)) }
        for message in small { try await client.send(message) }
        for message in small { #expect(try await server.receive() == .message(message)) }
        for message in small { try await server.send(message) }
        for message in small { #expect(try await client.receive() == .message(message)) }
    }

    @Test("concurrent sends do not interleave their chunks", arguments: MdocBLEMode.allCases)
    func concurrentSends(mode: MdocBLEMode) async throws {
        let (server, client) = try await Self.connect(mode: mode)
        defer {
            server.close()
            client.close()
        }
        let first = Self.message(5000, seed: 1)
        let second = Self.message(6000, seed: 2)
        async let a: Void = server.send(first)
        async let b: Void = server.send(second)
        _ = try await (a, b)
        let received = [try await client.receive(), try await client.receive()]
        #expect(Set(received) == [.message(first), .message(second)])
    }

    @Test("the client ends with State 0x02: the server sees .ended, then .disconnected", arguments: MdocBLEMode.allCases)
    func clientEnds(mode: MdocBLEMode) async throws {
        let (server, client) = try await Self.connect(mode: mode)
        defer { server.close() }
        try await client.send([1, 2, 3])
        await client.end()
        #expect(try await server.receive() == .message([1, 2, 3]))
        #expect(try await server.receive() == .ended)
        #expect(try await server.receive() == .disconnected)
        #expect(try await server.receive() == .disconnected)
        #expect(try await client.receive() == .disconnected)
    }

    @Test("the server ends with a State 0x02 notification: the client sees .ended, then .disconnected",
          arguments: MdocBLEMode.allCases)
    func serverEnds(mode: MdocBLEMode) async throws {
        let (server, client) = try await Self.connect(mode: mode)
        defer { client.close() }
        try await server.send([4, 5])
        await server.end()
        #expect(try await client.receive() == .message([4, 5]))
        #expect(try await client.receive() == .ended)
        #expect(try await client.receive() == .disconnected)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await client.send([1]) } == .linkClosed)
    }

    @Test("the client disconnecting mid-message gives the server .disconnected, not a message",
          arguments: MdocBLEMode.allCases)
    func clientDisconnectsMidMessage(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        defer { server.close() }
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        try await manual.start()
        let chunks = MessageChunker.chunks(of: Self.message(3000, seed: 9), mtu: 515)
        for chunk in chunks.prefix(3) { try await manual.client.writeWithoutResponse(chunk, to: manual.client2Server) }
        manual.client.close()
        #expect(try await server.receive() == .disconnected)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await server.send([1]) } == .linkClosed)
    }

    @Test("the server disconnecting mid-message gives the client .disconnected, not a message",
          arguments: MdocBLEMode.allCases)
    func serverDisconnectsMidMessage(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let gatt = GATTServerConnection(
            server: GATTServer(services: [MdocGATTProfile.service(mode: mode, serviceUUID: uuid, ident: Self.ident)]),
            bearer: accepted)
        async let clientTransport = MdocGATTClientTransport(mode: mode, serviceUUID: uuid, expectedIdent: Self.ident,
                                                            bearer: connected)
        while let event = try await gatt.nextEvent(),
              event != .written(characteristic: MdocGATTProfile.state(mode: mode), value: [0x01], withResponse: false) {}
        let client = try await clientTransport
        defer { client.close() }
        let chunks = MessageChunker.chunks(of: Self.message(3000, seed: 9), mtu: await gatt.mtu)
        for chunk in chunks.prefix(3) { try await gatt.notify(MdocGATTProfile.server2Client(mode: mode), value: chunk) }
        gatt.close()
        #expect(try await client.receive() == .disconnected)
    }

    @Test("central client mode: a different Ident is rejected, the link closed")
    func identMismatch() async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: .centralClient, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        defer { server.close() }
        var other = Self.ident
        other[15] ^= 1
        let expected = other
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await MdocGATTClientTransport(mode: .centralClient, serviceUUID: uuid, expectedIdent: expected, bearer: connected)
        } == .identMismatch)
        #expect(try await server.receive() == .disconnected)
    }

    @Test("a client looking for another service UUID gets serviceNotFound")
    func wrongService() async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: uuid, bearer: accepted)
        defer { server.close() }
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await MdocGATTClientTransport(mode: .peripheralServer, serviceUUID: UUID(), bearer: connected)
        } == .serviceNotFound)
    }

    @Test("the server sends once the client wrote State 0x01 and subscribed to Server2Client; State's subscription is not needed",
          arguments: MdocBLEMode.allCases)
    func serverWaitsForStartAndServer2Client(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        defer { server.close() }
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        defer { manual.client.close() }
        let sent = SentFlag()
        let sender = Task {
            try await server.send([7, 7, 7])
            sent.value.withLockedValue { $0 = true }
        }
        try await manual.client.setNotifications(true, for: manual.server2Client)
        // The subscription was taken, and the send waits again: for the start.
        while await !server.isAwaitingChange { await Task.yield() }
        #expect(!sent.value.withLockedValue { $0 }, "sent before State 0x01")
        try await manual.client.writeWithoutResponse([MdocGATTProfile.stateStart], to: manual.state)
        try await sender.value
        let notification = try #require(try await manual.client.nextNotification())
        #expect(notification.handle == manual.server2Client.valueHandle)
        #expect(notification.value == [0x00, 7, 7, 7])
        // State 0x02 goes out only to a client that subscribed to State.
        await server.end()
        #expect(try await manual.client.nextNotification() == nil)
    }

    @Test("a client subscribed to State only gets nothing; when the link ends the send says it never subscribed to Server2Client",
          arguments: MdocBLEMode.allCases)
    func serverToAClientWithoutServer2Client(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        defer { manual.client.close() }
        try await manual.client.setNotifications(true, for: manual.state)
        try await manual.client.writeWithoutResponse([MdocGATTProfile.stateStart], to: manual.state)
        try await server.waitForStart()
        let sender = Task { await SessionAcceptorTests.failure { () throws(BLEError) in try await server.send([7]) } }
        while await !server.isAwaitingChange { await Task.yield() }
        server.close()
        let error = try #require(await sender.value, "the send to a client without Server2Client notifications succeeded")
        #expect(error.code == .notSubscribed)
        #expect(error.reason == "the GATT client started the session but never enabled notifications of Server2Client (it subscribed to State only), so the message could not be sent")
    }

    @Test("a client that subscribed to Server2Client, stopped and went away is reported gone, not as never subscribed",
          arguments: MdocBLEMode.allCases)
    func serverToAClientThatLeftAfterSubscribing(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        defer { server.close() }
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        try await manual.start()
        try await server.waitForStart()
        try await manual.client.setNotifications(false, for: manual.server2Client)
        let sender = Task { await SessionAcceptorTests.failure { () throws(BLEError) in try await server.send([7]) } }
        while await !server.isAwaitingChange { await Task.yield() }
        manual.client.close()
        let error = try #require(await sender.value, "the send to a client that went away succeeded")
        #expect(error.code == .linkClosed, "\(error)")
        #expect(!error.reason.contains("never enabled"), "\(error)")
    }

    @Test("State 0x01 drops a partial message on the server", arguments: MdocBLEMode.allCases)
    func startResetsReassembly(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        defer { server.close() }
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        defer { manual.client.close() }
        try await manual.start()
        try await manual.client.writeWithoutResponse([0x01, 1, 2, 3], to: manual.client2Server)
        try await manual.client.writeWithoutResponse([MdocGATTProfile.stateStart], to: manual.state)
        try await manual.client.writeWithoutResponse([0x00, 9], to: manual.client2Server)
        #expect(try await server.receive() == .message([9]))
    }

    @Test("data on Client2Server before State 0x01 fails the server's receive and closes the link",
          arguments: MdocBLEMode.allCases)
    func dataBeforeStart(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: mode, serviceUUID: uuid, ident: Self.ident, bearer: accepted)
        let manual = try await ManualMdocClient.discover(mode: mode, serviceUUID: uuid, bearer: connected)
        defer { manual.client.close() }
        try await manual.client.writeWithoutResponse([0x00, 0xA0], to: manual.client2Server)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await server.receive() } == .protocolViolation)
        #expect(try await manual.client.nextNotification() == nil)
    }

    @Test("a bad chunk header from the client fails the server's receive and closes the link")
    func badChunkHeader() async throws {
        let uuid = UUID()
        let (accepted, connected) = try await SimTestSupport.connectedPair(serviceUUID: uuid)
        let server = MdocGATTServerTransport(mode: .peripheralServer, serviceUUID: uuid, bearer: accepted)
        let manual = try await ManualMdocClient.discover(mode: .peripheralServer, serviceUUID: uuid, bearer: connected)
        defer { manual.client.close() }
        try await manual.start()
        try await manual.client.writeWithoutResponse([0x03, 1], to: manual.client2Server)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await server.receive() } == .invalidChunkHeader)
        #expect(try await manual.client.nextNotification() == nil)
    }

    @Test("the connector pairs holder and reader in each mode", arguments: MdocBLEMode.allCases)
    func connector(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        // Bounds a correct pairing ends well within, scaled for runs under sanitizers.
        let timeout = Duration.seconds(10 * TimeoutScale.factor)
        async let holderSide = MdocBLEConnector.holder(mode: mode, serviceUUID: uuid, ident: Self.ident, timeout: timeout, over: SimAdapter())
        let reader = try await MdocBLEConnector.reader(mode: mode, serviceUUID: uuid, ident: Self.ident, timeout: timeout, over: SimAdapter())
        let holder = try await holderSide
        #expect(holder.mode == mode)
        #expect((holder is MdocGATTServerTransport) == (mode == .peripheralServer))
        #expect((reader is MdocGATTClientTransport) == (mode == .peripheralServer))
        let establishment = Self.message(900, seed: 3)
        try await reader.send(establishment)
        #expect(try await holder.receive() == .message(establishment))
        try await holder.send([1])
        #expect(try await reader.receive() == .message([1]))
        await reader.end()
        #expect(try await holder.receive() == .ended)
        holder.close()
    }

    @Test("a reader sizing the link takes an ATT_MTU of 23 and sends short chunks; the holder reads its message whole",
          arguments: MdocBLEMode.allCases)
    func sizedConnector(mode: MdocBLEMode) async throws {
        let uuid = UUID()
        let timeout = Duration.seconds(10 * TimeoutScale.factor)
        async let holderSide = MdocBLEConnector.holder(mode: mode, serviceUUID: uuid, ident: Self.ident, timeout: timeout, over: SimAdapter())
        let reader = try await MdocBLEConnector.reader(
            mode: mode, serviceUUID: uuid, ident: Self.ident, sizing: MdocLinkSizing(receiveMTU: 23, chunking: .atMost(7)),
            timeout: timeout, over: SimAdapter())
        let holder = try await holderSide
        let establishment = Self.message(900, seed: 5)
        try await reader.send(establishment)
        #expect(try await holder.receive() == .message(establishment))
        #expect(await reader.mtu == 23)
        #expect(await holder.mtu == 23)
        let response = Self.message(300, seed: 6)
        try await holder.send(response)
        #expect(try await reader.receive() == .message(response))
        await reader.end()
        #expect(try await holder.receive() == .ended)
        holder.close()
    }

    @Test("the connector reports a missing peer")
    func connectorTimeout() async {
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await MdocBLEConnector.reader(mode: .peripheralServer, serviceUUID: UUID(), ident: Self.ident,
                                              timeout: .milliseconds(100), over: SimAdapter())
        } == .peerNotFound)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await MdocBLEConnector.holder(mode: .peripheralServer, serviceUUID: UUID(), ident: Self.ident,
                                              timeout: .milliseconds(100), over: SimAdapter())
        } == .timeout)
    }
}
