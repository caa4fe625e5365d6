#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
@testable import MdocBLE
@testable import MdocLEHost
import MdocTestSupport
import Testing

/// Two LE hosts of this toolkit through two linked Bumble virtual controllers (docs/architecture.md
/// section 6): real advertising, scanning, connections, ACL flow control and the 18013-5 GATT
/// service, over the controllers' H4 streams on loopback.
@Suite("LE hosts through Bumble virtual controllers (ISO/IEC 18013-5 8.3.3.1.1 over HCI)", .timeLimit(.minutes(2)))
struct BumbleLinkTests {
    static let ident: [UInt8] = Array(100..<116)

    /// Two started hosts on fresh linked controllers.
    static func hosts() async throws -> (VirtualControllers, LEHost, LEHost) {
        let controllers = try await VirtualControllers.start(count: 2, checkout: Vectors.repositoryRoot)
        let first = try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[0])))
        let second = try await LEHost.open(.tcp(host: "127.0.0.1", port: UInt16(controllers.ports[1])))
        return (controllers, first, second)
    }

    static func message(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    @Test("holder and reader exchange 20 KB messages in each mode; ATT PDUs are the minimum the MTU allows",
          arguments: MdocBLEMode.allCases)
    func session(mode: MdocBLEMode) async throws {
        let (controllers, holderHost, readerHost) = try await Self.hosts()
        defer { controllers.stop() }
        let uuid = UUID()
        async let holderSide = MdocBLEConnector.holder(mode: mode, serviceUUID: uuid, ident: Self.ident,
                                                       timeout: .seconds(20), over: holderHost)
        let reader = try await MdocBLEConnector.reader(mode: mode, serviceUUID: uuid, ident: Self.ident,
                                                       timeout: .seconds(20), over: readerHost)
        let holder = try await holderSide
        let mtus = (await holder.mtu, await reader.mtu)
        #expect(mtus == (515, 515))

        let request = Self.message(1_500, seed: 1)
        try await reader.send(request)
        #expect(try await holder.receive() == .message(request))
        let before = await holderHost.statistics
        let response = Self.message(20_000, seed: 2)
        try await holder.send(response)
        #expect(try await reader.receive() == .message(response))
        let after = await holderHost.statistics
        // Each ATT PDU carries MTU − 4 message octets (3 of ATT header, 1 of chunk header).
        let minimum = (response.count + 511 - 1) / 511
        #expect(after.attPDUsSent - before.attPDUsSent == minimum)
        let aclOctets = after.aclOctetsSent - before.aclOctetsSent
        #expect(aclOctets > response.count && aclOctets < response.count * 13 / 10)

        await reader.end()
        #expect(try await holder.receive() == .ended)
        holder.close()
        await holderHost.close()
        await readerHost.close()
    }

    @Test("a scan sees the advertised service UUID with an RSSI")
    func scan() async throws {
        let (controllers, advertiser, scanner) = try await Self.hosts()
        defer { controllers.stop() }
        let uuid = UUID()
        let advertisement = try await advertiser.advertise(serviceUUID: uuid)
        let sightings = try await scanner.scan(for: .milliseconds(800))
        let address = try #require(await advertiser.controller?.address)
        let seen = try #require(sightings.first { $0.serviceUUIDs == [uuid] })
        #expect(seen.address == address.description && seen.isConnectable && seen.rssi != nil)
        await advertisement.stop()
        await advertiser.close()
        await scanner.close()
    }

    @Test("connecting to a service nobody advertises fails within the timeout")
    func nobodyAdvertises() async throws {
        let (controllers, first, second) = try await Self.hosts()
        defer { controllers.stop() }
        let started = ContinuousClock.now
        await #expect(throws: BLEError(.peerNotFound, "")) {
            try await first.connect(serviceUUID: UUID(), timeout: .milliseconds(500))
        }
        // It gave up when its timeout ran out; that it does not wait for ever is the suite's limit.
        #expect(ContinuousClock.now - started >= .milliseconds(500))
        await first.close()
        await second.close()
    }

    @Test("controllers vanishing mid-message end both sides: the receiver sees the link go, the sender fails")
    func controllersVanish() async throws {
        let (controllers, holderHost, readerHost) = try await Self.hosts()
        let uuid = UUID()
        async let holderSide = MdocBLEConnector.holder(mode: .peripheralServer, serviceUUID: uuid, ident: Self.ident,
                                                       timeout: .seconds(20), over: holderHost)
        let reader = try await MdocBLEConnector.reader(mode: .peripheralServer, serviceUUID: uuid, ident: Self.ident,
                                                       timeout: .seconds(20), over: readerHost)
        let holder = try await holderSide
        try await reader.send([1])
        #expect(try await holder.receive() == .message([1]))
        let sent = await readerHost.statistics.attPDUsReceived
        // The longest message a peer may send (8.3.3.1.1.6 has no bound; MessageReassembler's):
        // its transfer outlasts any wait of this task for a core on a busy machine, so the
        // controllers stop while it is under way (400 KB had arrived whole once, at load 15).
        let sender = Task { try await holder.send(Self.message(MessageReassembler.maximumMessageSize, seed: 3)) }
        // The message is arriving: its first notification reached the reader.
        while await readerHost.statistics.attPDUsReceived == sent { await Task.yield() }
        controllers.stop()
        let event = try? await reader.receive()
        #expect(event == nil || event == .disconnected)
        await #expect(throws: BLEError(.linkClosed, "")) { try await sender.value }
        await holderHost.close()
        await readerHost.close()
    }
}
