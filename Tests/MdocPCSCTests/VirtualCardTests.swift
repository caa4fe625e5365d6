import MdocPCSC
import NIOCore
import Testing

/// The virtual card against a stand-in vpcd of the test's own: the vpicc exchange, the frames vpcd
/// would not send, answers a frame cannot carry, and how a run ends.
@Suite struct VirtualCardTests {
    static let atr: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]

    /// A card that answers every short command with its data field (after Lc) and 9000, and
    /// records power.
    struct EchoCard: VirtualCardHandler {
        let events: AsyncStream<String>.Continuation
        func respond(to command: [UInt8]) async -> [UInt8] {
            Array(command.dropFirst(5).prefix(Int(command[4]))) + [0x90, 0x00]
        }
        func powerChanged(on: Bool) async { events.yield(on ? "on" : "off") }
        func reset() async { events.yield("reset") }
    }

    /// A card whose answers are `response`, whatever the command.
    struct FixedCard: VirtualCardHandler {
        let response: [UInt8]
        func respond(to command: [UInt8]) async -> [UInt8] { response }
    }

    private func run(
        _ address: VirtualCard.Address, handler: some VirtualCardHandler, maximumCommandLength: Int = VPICCFrame.maximumPayloadLength,
        frameInactivityBound: Duration = VirtualCard.frameInactivityBound
    ) -> Task<Void, any Error> {
        Task {
            try await VirtualCard.run(
                address, atr: Self.atr, maximumCommandLength: maximumCommandLength, frameInactivityBound: frameInactivityBound,
                handler: handler)
        }
    }

    @Test func answersControlsAndCommandsUntilVpcdCloses() async throws {
        let (events, continuation) = AsyncStream<String>.makeStream()
        try await StandInVPCD.with { vpcd in
            let card = run(vpcd.address, handler: EchoCard(events: continuation))
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x01]))
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == Self.atr)
                try await outbound.write(StandInVPCD.frame([0x00, 0xC3, 0x00, 0x00, 0x03, 0xAA, 0xBB, 0xCC, 0x00]))
                #expect(try await frames.next() == [0xAA, 0xBB, 0xCC, 0x90, 0x00])
                try await outbound.write(StandInVPCD.frame([0x02]))
                try await outbound.write(StandInVPCD.frame([0x00]))
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == Self.atr)
            }
            // vpcd closed the connection: the card is out of the reader and the run returns.
            try await card.value
        }
        continuation.finish()
        var seen: [String] = []
        for await event in events { seen.append(event) }
        #expect(seen == ["on", "reset", "off"])
    }

    @Test func theLongestCommandAndResponseAFrameCarries() async throws {
        let longest = VPICCFrame.maximumPayloadLength
        try await StandInVPCD.with { vpcd in
            let card = run(vpcd.address, handler: FixedCard(response: [UInt8](repeating: 0x11, count: longest - 2) + [0x90, 0x00]))
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x00, 0xC3, 0x00, 0x00] + [UInt8](repeating: 0x22, count: longest - 4)))
                #expect(try await frames.next()?.count == longest)
            }
            try await card.value
        }
    }

    @Test(arguments: [0, 1, VPICCFrame.maximumPayloadLength + 1])
    func anAnswerAFrameCannotCarryEndsTheRun(length: Int) async throws {
        try await StandInVPCD.with { vpcd in
            let card = run(vpcd.address, handler: FixedCard(response: [UInt8](repeating: 0x90, count: length)))
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x00, 0xB0, 0x00, 0x00, 0x00]))
                // The card closes the connection without an answer: vpcd sees it removed.
                #expect(try await frames.next() == nil)
            }
            await #expect(throws: VirtualCardError(.invalidResponse, "")) { try await card.value }
        }
    }

    @Test(arguments: [
        ([UInt8]([0x00, 0x00]), ErrorKind<VirtualCardError>.emptyFrame),
        ([0x00, 0x01, 0x07], .unknownControl),
        ([0x01, 0x06], .oversizeFrame),
        ([0x00, 0x10, 0x00, 0xA4], .truncatedFrame),
        ([0x00], .truncatedFrame),
    ])
    func aFrameVpcdWouldNotSendEndsTheRun(bytes: [UInt8], kind: ErrorKind<VirtualCardError>) async throws {
        try await StandInVPCD.with { vpcd in
            // A card of short APDUs only: at most 261 octets (0x0105) a command.
            let card = run(vpcd.address, handler: FixedCard(response: [0x90, 0x00]), maximumCommandLength: 261)
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == Self.atr)
                try await outbound.write(ByteBuffer(bytes: bytes))
            }
            await #expect(throws: VirtualCardError(kind, "")) { try await card.value }
        }
    }

    /// vpcd stopping inside a frame ends the run with `stalledFrame` once the bound passes
    /// (the watch's timing is tested on an embedded loop, VPICCFrameWatchTests).
    @Test(.timeLimit(.minutes(1))) func aFrameThatStopsComing() async throws {
        try await StandInVPCD.with { vpcd in
            let card = run(vpcd.address, handler: FixedCard(response: [0x90, 0x00]), frameInactivityBound: .milliseconds(200))
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == Self.atr)
                try await outbound.write(ByteBuffer(bytes: [0x00, 0x10, 0x00, 0xA4]))
                // The card gives up on the frame and closes the connection.
                #expect(try await frames.next() == nil)
            }
            await #expect(throws: VirtualCardError(.stalledFrame, "")) { try await card.value }
        }
    }

    @Test func cancellationEndsTheRunAndClosesTheConnection() async throws {
        try await StandInVPCD.with { vpcd in
            let card = run(vpcd.address, handler: FixedCard(response: [0x90, 0x00]))
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == Self.atr)
                card.cancel()
                #expect(try await frames.next() == nil)
            }
            try await card.value
        }
    }

    @Test func nothingListening() async throws {
        let port = try await StandInVPCD.with { $0.address.port }
        await #expect(throws: VirtualCardError(.connectionFailed, "")) {
            try await VirtualCard.run(VirtualCard.Address(host: "127.0.0.1", port: port), atr: Self.atr, handler: FixedCard(response: [0x90, 0x00]))
        }
    }

    @Test(arguments: [2, PCSCCard.maximumATRLength])
    func theShortestAndLongestATR(length: Int) async throws {
        let atr = [0x3B] + [UInt8](repeating: 0x00, count: length - 1)
        try await StandInVPCD.with { vpcd in
            let card = Task { try await VirtualCard.run(vpcd.address, atr: atr, handler: FixedCard(response: [0x90, 0x00])) }
            try await vpcd.accept { frames, outbound in
                try await outbound.write(StandInVPCD.frame([0x04]))
                #expect(try await frames.next() == atr)
            }
            try await card.value
        }
    }

    @Test(arguments: [0, 1, PCSCCard.maximumATRLength + 1])
    func anATROfTheWrongLength(length: Int) async throws {
        await #expect(throws: VirtualCardError(.invalidATR, "")) {
            try await VirtualCard.run(atr: [UInt8](repeating: 0x3B, count: length), handler: FixedCard(response: [0x90, 0x00]))
        }
    }

    @Test func addresses() throws {
        #expect(try VirtualCard.Address(parsing: "vpcd") == VirtualCard.Address(host: "localhost", port: 35963))
        #expect(try VirtualCard.Address(parsing: "vpcd:10.0.0.2:35964") == VirtualCard.Address(host: "10.0.0.2", port: 35964))
        #expect(try VirtualCard.Address(parsing: "vpcd:[::1]:1") == VirtualCard.Address(host: "::1", port: 1))
        #expect(VirtualCard.Address(host: "::1", port: 1).description == "vpcd:[::1]:1")
        for text in ["vpcd:", "vpcd:host", "vpcd::35963", "vpcd:host:0", "vpcd:host:65536", "pcsc:host:1"] {
            #expect(throws: VirtualCardError(.invalidAddress, "")) { try VirtualCard.Address(parsing: text) }
        }
    }
}
