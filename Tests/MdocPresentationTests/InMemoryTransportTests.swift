import Logging
import MdocBLE
@testable import MdocPresentation
import MdocTestSupport
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The in-memory link keeps the 18013-5 BLE semantics the drivers depend on (ISO/IEC 18013-5
/// 8.3.3.1.1.4-8.3.3.1.1.6): whole messages through the chunking and its limits, State 0x02 as
/// `.ended`, a closed link as `.disconnected`, and peers that meet on a service UUID as a GATT
/// server and client do.
@Suite("In-memory transports and radio (ISO/IEC 18013-5 8.3.3.1.1)", .timeLimit(.minutes(1)))
struct InMemoryTransportTests {
    static let logger = Logger(label: "test")

    @Test("a message arrives whole, and the receiving end's inactivity watch is told of its chunks")
    func messageArrives() async throws {
        let (holder, reader) = InMemoryTransport.pair(mode: .peripheralServer)
        let message = (0..<5_000).map { UInt8(truncatingIfNeeded: $0) }
        let clock = ManualClock()
        async let holderWait = holder.inactivity.expiry(first: .seconds(1), idle: .seconds(1), message: .seconds(10), clock: clock)
        async let readerWait = reader.inactivity.expiry(first: .seconds(1), idle: .seconds(1), message: .seconds(10), clock: clock)
        await clock.sleeping(2)
        try await reader.send(message)
        #expect(try await holder.receive() == .message(message))
        clock.advance(by: .seconds(1))
        #expect(await holderWait == .stalled)
        #expect(await readerWait == .silent)
    }

    @Test("State 0x02 from one end is .ended at the other, then the link is closed for both")
    func endIsStateEnd() async throws {
        let (holder, reader) = InMemoryTransport.pair(mode: .centralClient)
        await reader.end()
        #expect(try await holder.receive() == .ended)
        #expect(try await holder.receive() == .disconnected)
        #expect(try await reader.receive() == .disconnected)
        await #expect(throws: BLEError(.linkClosed, "")) { try await holder.send([1]) }
    }

    @Test("closing wakes a waiting receive on both ends with .disconnected")
    func closeWakesReceivers() async throws {
        let (holder, reader) = InMemoryTransport.pair(mode: .peripheralServer)
        async let waiting = holder.receive()
        while !holder.isWaitingToReceive { await Task.yield() }
        reader.close()
        #expect(try await waiting == .disconnected)
        #expect(try await reader.receive() == .disconnected)
    }

    @Test("a message over the reassembly limit fails the receiving end with messageTooLarge; at the limit it arrives")
    func reassemblyLimit() async throws {
        let (atLimit, sender) = InMemoryTransport.pair(mode: .peripheralServer)
        let limit = [UInt8](repeating: 0xA5, count: MessageReassembler.maximumMessageSize)
        try await sender.send(limit)
        #expect(try await atLimit.receive() == .message(limit))

        let (overLimit, flooder) = InMemoryTransport.pair(mode: .peripheralServer)
        await #expect(throws: BLEError(.linkClosed, "")) { try await flooder.send(limit + [0]) }
        await #expect(throws: BLEError(.messageTooLarge, "")) { try await overLimit.receive() }
    }

    @Test(arguments: MdocBLEMode.allCases)
    func holderAndReaderMeetOnTheServiceUUID(_ mode: MdocBLEMode) async throws {
        let clock = ManualClock()
        let radio = InMemoryRadio()
        let uuid = UUID()
        let ident = [UInt8](repeating: 7, count: 16)
        async let holder = radio.holderLink(mode: mode, serviceUUID: uuid, ident: ident, timeout: .seconds(30), clock: clock,
                                            logger: Self.logger)
        let reader = try await radio.readerLink(mode: mode, serviceUUID: uuid, ident: ident, timeout: .seconds(30), clock: clock,
                                                logger: Self.logger)
        try await reader.send([1, 2, 3])
        #expect(try await holder.receive() == .message([1, 2, 3]))
        #expect(reader.mode == mode)
        // The server stopped advertising once its peer came: nobody else finds it.
        let late = Task {
            try await radio.readerLink(mode: .peripheralServer, serviceUUID: uuid, ident: ident, timeout: .milliseconds(50), clock: clock,
                                       logger: Self.logger)
        }
        await clock.sleeping(dueWithin: .milliseconds(50))
        clock.advance(by: .milliseconds(50))
        await #expect(throws: BLEError(.peerNotFound, "")) { _ = try await late.value }
    }

    @Test("a radio keeps the links it made only while they are open, so session after session does not grow it")
    func closedLinksAreReleased() async throws {
        let clock = ManualClock()
        let radio = InMemoryRadio()
        /// Makes a pair of links on a new service UUID; the reader's end is ended (State 0x02,
        /// then closed) when `ending`.
        func meet(ending: Bool) async throws -> (any MdocTransport, any MdocTransport) {
            let uuid = UUID()
            async let holder = radio.holderLink(mode: .peripheralServer, serviceUUID: uuid, ident: [], timeout: .seconds(30), clock: clock,
                                                logger: Self.logger)
            let reader = try await radio.readerLink(mode: .peripheralServer, serviceUUID: uuid, ident: [], timeout: .seconds(30),
                                                    clock: clock, logger: Self.logger)
            if ending { await reader.end() }
            return (try await holder, reader)
        }
        _ = try await meet(ending: true)
        #expect(await radio.keptLinkCount == 2)
        // The next meeting lets the first pair go, which was closed, and keeps its own, open,
        // for close().
        let open = try await meet(ending: false)
        #expect(await radio.keptLinkCount == 2)
        _ = try await meet(ending: false)
        #expect(await radio.keptLinkCount == 4)
        await radio.close()
        #expect(await radio.keptLinkCount == 0)
        await #expect(throws: BLEError(.linkClosed, "")) { try await open.0.send([1]) }
    }

    @Test("a second server for one service fails with serviceInUse; nobody in time is a timeout")
    func serviceInUseAndTimeout() async throws {
        let radio = InMemoryRadio()
        let uuid = UUID()
        let first = Task { try await radio.readerLink(mode: .centralClient, serviceUUID: uuid, ident: [], timeout: .seconds(30), logger: Self.logger) }
        while try await radio.scan(for: .zero).isEmpty { await Task.yield() }
        await #expect(throws: BLEError(.serviceInUse, "")) {
            _ = try await radio.readerLink(mode: .centralClient, serviceUUID: uuid, ident: [], timeout: .seconds(30), logger: Self.logger)
        }
        await radio.close()
        await #expect(throws: BLEError(.linkClosed, "")) { _ = try await first.value }
        let clock = ManualClock()
        let quiet = InMemoryRadio()
        let nobody = Task {
            try await quiet.holderLink(mode: .peripheralServer, serviceUUID: uuid, ident: [], timeout: .milliseconds(50), clock: clock,
                                       logger: Self.logger)
        }
        await clock.sleeping(dueWithin: .milliseconds(50))
        clock.advance(by: .milliseconds(50))
        await #expect(throws: BLEError(.timeout, "")) { _ = try await nobody.value }
    }

    @Test("in central client mode the holder refuses a reader whose Ident differs")
    func identMismatch() async throws {
        let radio = InMemoryRadio()
        let uuid = UUID()
        let reader = Task { try await radio.readerLink(mode: .centralClient, serviceUUID: uuid, ident: [1], timeout: .seconds(2), logger: Self.logger) }
        await #expect(throws: BLEError(.identMismatch, "")) {
            _ = try await radio.holderLink(mode: .centralClient, serviceUUID: uuid, ident: [2], timeout: .seconds(30), logger: Self.logger)
        }
        await #expect(throws: BLEError(.timeout, "")) { _ = try await reader.value }
    }
}
