#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import MdocBLE
@testable import MdocPosix
@testable import MdocSim
import MdocTestSupport
import NIOCore
import NIOPosix
import Testing

/// Helpers shared by the sim link and transport tests.
enum SimTestSupport {
    /// A connected pair over a fresh service UUID: (advertiser's end, scanner's end).
    static func connectedPair(serviceUUID: UUID = UUID()) async throws -> (accepted: SimBearer, connected: SimBearer) {
        let advertiser = try SimLink.advertise(serviceUUID: serviceUUID)
        let connected = try await SimLink.connect(serviceUUID: serviceUUID, timeout: .seconds(10))
        let accepted = try await advertiser.accept(timeout: .seconds(10))
        return (accepted, connected)
    }

    /// Two bearers over a socketpair(2), with the given maximum PDU sizes.
    static func socketPair(_ first: Int, _ second: Int) async throws -> (SimBearer, SimBearer) {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { throw BLEError(.systemCall, "socketpair") }
        return (try await SimBearer.connected(socket: pair[0], maximumPDUSize: first),
                try await SimBearer.connected(socket: pair[1], maximumPDUSize: second))
    }

    /// How many received PDUs `bearer` holds because no consumer attached yet.
    static func heldCount(_ bearer: SimBearer) async throws -> Int {
        try await bearer.eventLoop.submit { try delivery(bearer).heldCount }.get()
    }

    /// The handler holding what `bearer` receives; on its event loop.
    static func delivery(_ bearer: SimBearer) throws -> InboundDeliveryHandler<ByteBuffer> {
        try bearer.channel.pipeline.syncOperations.handler(type: InboundDeliveryHandler<ByteBuffer>.self)
    }

    /// The error code `body` throws, nil when it returns.
    static func errorCode<T>(_ body: () async throws(BLEError) -> T) async -> BLEError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error.code
        }
    }

    /// The number of open descriptors of this process.
    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// The number of open descriptors once every event loop of the group the sim link runs on
    /// has run what was queued on it before: the closes asked for by then (each closes its
    /// socket on its loop) have happened. Twice, for what a close queues in turn.
    static func drainedDescriptorCount() async throws -> Int {
        for _ in 0..<2 {
            for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                try await loop.submit {}.get()
            }
        }
        return try openDescriptorCount()
    }
}

@Suite("Sim link: ATT bearers over AF_UNIX SOCK_SEQPACKET (docs/architecture.md section 4)", .timeLimit(.minutes(1)))
struct SimLinkTests {
    @Test("the address is mdoc-sim/<lowercase uuid> after the namespace")
    func address() throws {
        let uuid = try #require(UUID(uuidString: "45EFEF74-2B2C-4837-A9A3-B0E1D05A6917"))
        #expect(SimLink.address(of: uuid, namespace: "") == "mdoc-sim/45efef74-2b2c-4837-a9a3-b0e1d05a6917")
        #expect(SimLink.address(of: uuid, namespace: "test-7/") == "test-7/mdoc-sim/45efef74-2b2c-4837-a9a3-b0e1d05a6917")
        let namespace = getenv(SimLink.namespaceVariable).map { String(cString: $0) } ?? ""
        #expect(SimLink.address(of: uuid) == namespace + "mdoc-sim/45efef74-2b2c-4837-a9a3-b0e1d05a6917")
    }

    @Test("an address of the longest abstract name is usable, one byte more is refused")
    func addressLength() async throws {
        let limit = SimSocket.maximumNameLength
        #expect(limit == 107)
        let prefix = "mdoc-sim-test/" + UUID().uuidString + "/"
        let longest = prefix + String(repeating: "x", count: limit - prefix.utf8.count)
        let advertiser = try SimLink.advertise(address: longest)
        let bearer = try await SimLink.connect(address: longest, timeout: .seconds(5))
        bearer.close()
        advertiser.stop()
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try SimLink.advertise(address: longest + "x") } == .systemCall)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await SimLink.connect(address: longest + "x", timeout: .seconds(1))
        } == .systemCall)
    }

    @Test("advertise, connect, PDUs both ways in order, one datagram each")
    func exchange() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        defer {
            accepted.close()
            connected.close()
        }
        #expect(accepted.maximumPDUSize == 517)
        let (acceptedInbox, connectedInbox) = (try await ATTBearerInbox(accepted), try await ATTBearerInbox(connected))
        let pdus = (1...300).map { index in [UInt8](repeating: UInt8(index % 256), count: index % 517 + 1) }
        // Half one at a time, half in one send: either way one datagram per PDU.
        async let sent: Void = {
            for pdu in pdus.prefix(150) { try await connected.send(pdu) }
            try await connected.send(Array(pdus.dropFirst(150))).get()
        }()
        var received: [[UInt8]] = []
        for _ in pdus { received.append(try #require(try await acceptedInbox.receive())) }
        try await sent
        #expect(received == pdus)
        try await accepted.send([0x0B, 1, 2])
        #expect(try await connectedInbox.receive() == [0x0B, 1, 2])
    }

    @Test("connect scans until the advertiser appears")
    func scanUntilAdvertised() async throws {
        let uuid = UUID()
        let (listening, scannerListens) = AsyncStream<Void>.makeStream()
        let scanner = Task {
            try await SimLink.connect(address: SimLink.address(of: uuid), timeout: .seconds(10)) { scannerListens.yield() }
        }
        for await _ in listening { break }
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        let accepted = try await advertiser.accept(timeout: .seconds(10))
        let connected = try await scanner.value
        try await connected.send([1])
        #expect(try await ATTBearerInbox(accepted).receive() == [1])
        accepted.close()
        connected.close()
    }

    @Test("a scan lists the advertisers there when it starts and those announced while it lasts")
    func scan() async throws {
        let before = UUID()
        let during = UUID()
        let first = try SimLink.advertise(serviceUUID: before)
        defer { first.stop() }
        let (listening, scannerListens) = AsyncStream<Void>.makeStream()
        let scanning = Task { try await SimAdapter().scan(for: .seconds(2)) { scannerListens.yield() } }
        for await _ in listening { break }
        let second = try SimLink.advertise(serviceUUID: during)
        second.stop()
        let found = Set(try await scanning.value.flatMap(\.serviceUUIDs))
        #expect(found.isSuperset(of: [before, during]))
    }

    @Test("advertisers are seen among more sockets than /proc/net/unix shows in its first page")
    func advertisersBeyondTheFirstPage() async throws {
        // About 55 sockets fit the first page; 200 more listeners push a later one past it.
        let others = try (0..<200).map { _ in try SimLink.advertise(address: "mdoc-sim-test-filler/\(UUID())") }
        defer { for other in others { other.stop() } }
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        defer { advertiser.stop() }
        #expect(SimLink.advertisedNames().contains { $0.uuid == uuid })
        #expect(try await SimAdapter().scan(for: .zero).contains { $0.serviceUUIDs == [uuid] })
    }

    @Test("connect gives peerNotFound after the timeout when nobody advertises")
    func nobodyAdvertises() async throws {
        let start = ContinuousClock.now
        let code = await SimTestSupport.errorCode { () throws(BLEError) in
            try await SimLink.connect(serviceUUID: UUID(), timeout: .milliseconds(200))
        }
        #expect(code == .peerNotFound)
        #expect(ContinuousClock.now - start >= .milliseconds(200))
    }

    @Test("accept gives timeout when nobody connects; advertising goes on")
    func nobodyConnects() async throws {
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await advertiser.accept(timeout: .milliseconds(100)) } == .timeout)
        let connected = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(5))
        let accepted = try await advertiser.accept(timeout: .seconds(5))
        accepted.close()
        connected.close()
    }

    @Test("advertising goes on after each connection until stopped; then the name is free again")
    func connectionsUntilStopped() async throws {
        let uuid = UUID()
        let advertiser = try SimLink.advertise(serviceUUID: uuid)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try SimLink.advertise(serviceUUID: uuid) } == .serviceInUse)
        let first = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(5))
        let firstAccepted = try await advertiser.accept(timeout: .seconds(5))
        first.close()
        #expect(try await ATTBearerInbox(firstAccepted).receive() == nil)
        let second = try await SimLink.connect(serviceUUID: uuid, timeout: .seconds(5))
        let secondAccepted = try await advertiser.accept(timeout: .seconds(5))
        try await second.send([1])
        #expect(try await ATTBearerInbox(secondAccepted).receive() == [1])
        await advertiser.stopAndRelease()
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in
            try await SimLink.connect(serviceUUID: uuid, timeout: .milliseconds(100))
        } == .peerNotFound)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await advertiser.accept(timeout: .seconds(1)) } == .linkClosed)
        let again = try SimLink.advertise(serviceUUID: uuid)
        again.stop()
        secondAccepted.close()
        second.close()
    }

    @Test("a PDU of 517 bytes is carried, 518 is refused on send; empty PDUs are refused")
    func sendLimit() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        defer {
            accepted.close()
            connected.close()
        }
        let largest = [UInt8](repeating: 0x1B, count: 517)
        try await connected.send(largest)
        #expect(try await ATTBearerInbox(accepted).receive() == largest)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await connected.send(largest + [0]) } == .pduTooLarge)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await connected.send([UInt8]()) } == .malformedPDU)
    }

    @Test("a received PDU above the maximum fails the receive and closes the link")
    func receiveLimit() async throws {
        let (strict, lax) = try await SimTestSupport.socketPair(517, 1000)
        defer { lax.close() }
        let (strictInbox, laxInbox) = (try await ATTBearerInbox(strict), try await ATTBearerInbox(lax))
        try await lax.send([UInt8](repeating: 1, count: 517))
        try await lax.send([UInt8](repeating: 2, count: 518))
        #expect(try await strictInbox.receive()?.count == 517)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await strictInbox.receive() } == .pduTooLarge)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await strict.send([1]) } == .linkClosed)
        #expect(try await laxInbox.receive() == nil)
    }

    @Test("close ends the link for the consumer waiting on it; later calls too")
    func closeUnblocksReceive() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        defer { connected.close() }
        let inbox = try await ATTBearerInbox(accepted)
        let pending = Task { try await inbox.receive() }
        while try await !inbox.isWaiting { await Task.yield() }
        accepted.close()
        #expect(try await pending.value == nil)
        #expect(try await inbox.receive() == nil)
        accepted.close()
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await accepted.send([1]) } == .linkClosed)
    }

    @Test("the peer closing gives nil after the PDUs it sent before; sends then fail")
    func peerCloses() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        defer { accepted.close() }
        try await connected.send([1])
        try await connected.send([2])
        connected.close()
        // Attached only once the link has closed and its channel dropped its handlers.
        try await accepted.channel.closeFuture.get()
        let inbox = try await ATTBearerInbox(accepted)
        #expect(try await inbox.receive() == [1])
        #expect(try await inbox.receive() == [2])
        #expect(try await inbox.receive() == nil)
        #expect(await SimTestSupport.errorCode { () throws(BLEError) in try await accepted.send([3]) } == .linkClosed)
    }

    @Test("an unread backlog stops at the receive queue limit until a consumer attaches; the sender waits, nothing is lost")
    func flowControl() async throws {
        let (accepted, connected) = try await SimTestSupport.connectedPair()
        defer {
            accepted.close()
            connected.close()
        }
        let limit = SimBearer.receiveQueueLimit
        let count = limit + 2000
        let sender = Task {
            for index in 0..<count { try await connected.send([UInt8](repeating: UInt8(index % 256), count: 512)) }
        }
        // Once the handler holds back, the channel reads no more: a later look on its event loop
        // finds the same count.
        try await accepted.eventLoop.flatSubmit {
            do {
                return try SimTestSupport.delivery(accepted).holdingBack(on: accepted.eventLoop)
            } catch {
                return accepted.eventLoop.makeFailedFuture(error)
            }
        }.get()
        #expect(try await SimTestSupport.heldCount(accepted) == limit)
        let inbox = try await ATTBearerInbox(accepted)
        for index in 0..<count {
            #expect(try await inbox.receive() == [UInt8](repeating: UInt8(index % 256), count: 512))
        }
        try await sender.value
    }
}
