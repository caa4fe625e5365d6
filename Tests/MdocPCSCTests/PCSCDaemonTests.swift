import MdocPCSC
import MdocTestSupport
import Testing

/// The PC/SC client and the virtual card through the real pcscd 1.9.9 and vsmartcard's vpcd
/// (VirtualReaderDaemon). The client library reads the daemon's socket path once per process,
/// so every daemon of these tests has the same one and the tests run one after the other.
@Suite(.serialized) struct PCSCDaemonTests {
    static let reader = VirtualReaderDaemon.readerName
    static let atr: [UInt8] = [0x3B, 0x80, 0x80, 0x01, 0x01]
    /// The application the test card selects: ISO/IEC 18013-5's NFC data retrieval AID.
    static let aid: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x48, 0x04, 0x00]
    /// How long a wait for something that does come may take.
    static var arrivalBound: Duration { .seconds(10 * TimeoutScale.factor) }

    /// A card with one application: SELECT of ``aid`` (6A82 for any other), ENVELOPE echoing
    /// its data, READ BINARY answering as many octets as Le asks (up to the 65533 a vpicc frame
    /// carries beside the status word), and INS 70, which it never answers but tells `held` of.
    struct TestCard: VirtualCardHandler {
        let held: AsyncStream<Void>.Continuation?

        func respond(to command: [UInt8]) async -> [UInt8] {
            let apdu = CommandAPDU(command)
            switch command[1] {
            case 0xA4: return apdu.data == PCSCDaemonTests.aid ? [0x90, 0x00] : [0x6A, 0x82]
            case 0xC3: return apdu.data + [0x90, 0x00]
            case 0xB0:
                let count = min(apdu.le, VPICCFrame.maximumPayloadLength - 2)
                return (0..<count).map { UInt8(truncatingIfNeeded: $0) } + [0x90, 0x00]
            case 0x70:
                held?.yield()
                await untilCancelled()
                return [0x6F, 0x00]
            default: return [0x6D, 0x00]
            }
        }
    }

    /// The fields of a command APDU the test card reads (ISO/IEC 7816-4 5.1), short or extended.
    struct CommandAPDU {
        var data: [UInt8] = []
        var le = 0

        init(_ bytes: [UInt8]) {
            let body = Array(bytes.dropFirst(4))
            if body.count == 1 { le = body[0] == 0 ? 256 : Int(body[0]); return }
            if body.count == 3, body[0] == 0 { le = Self.extendedLe(body[1], body[2]); return }
            guard !body.isEmpty else { return }
            if body[0] != 0 {
                let lc = Int(body[0])
                data = Array(body[1..<min(body.count, 1 + lc)])
                if body.count == 2 + lc { le = body[1 + lc] == 0 ? 256 : Int(body[1 + lc]) }
            } else if body.count >= 3 {
                let lc = Int(body[1]) << 8 | Int(body[2])
                data = Array(body[3..<min(body.count, 3 + lc)])
                if body.count == 5 + lc { le = Self.extendedLe(body[3 + lc], body[4 + lc]) }
            }
        }

        static func extendedLe(_ high: UInt8, _ low: UInt8) -> Int {
            let value = Int(high) << 8 | Int(low)
            return value == 0 ? 65536 : value
        }
    }

    /// An extended command APDU: Lc in 3 octets, Le in 2 (65536 as `0000`).
    static func extended(_ ins: UInt8, data: [UInt8], le: Int?) -> [UInt8] {
        var apdu: [UInt8] = [0x00, ins, 0x00, 0x00]
        if !data.isEmpty { apdu += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data }
        if let le {
            if data.isEmpty { apdu.append(0x00) }
            apdu += [UInt8((le >> 8) & 0xFF), UInt8(le & 0xFF)]
        }
        return apdu
    }

    static let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, UInt8(aid.count)] + aid + [0x00]

    /// Starts the test card on `daemon`'s vpcd and connects to it.
    static func insertCard(
        _ daemon: VirtualReaderDaemon, into context: PCSCContext, held: AsyncStream<Void>.Continuation? = nil
    ) async throws -> (Task<Void, any Error>, PCSCCard) {
        let card = Task { try await VirtualCard.run(daemon.address, atr: atr, handler: TestCard(held: held)) }
        let presence = try await context.waitForCard(in: reader, within: arrivalBound)
        #expect(presence.atr == atr)
        return (card, try await context.connect(to: reader))
    }

    /// Runs `body` with a pcscd of its own and a PC/SC context of this process on it, and
    /// releases the context before the daemon stops, so that nothing of one test reaches the
    /// next test's pcscd. A test that stops the daemon itself releases the context against none,
    /// which only ends the context.
    static func withContext(_ body: (VirtualReaderDaemon, PCSCContext) async throws -> Void) async throws {
        let daemon = try await VirtualReaderDaemon()
        defer { daemon.stop() }
        let context = try await PCSCContext.establish()
        do {
            try await body(daemon, context)
        } catch {
            await context.release()
            throw error
        }
        await context.release()
    }

    @Test func noService() async {
        _ = VirtualReaderDaemon.directory  // PCSCLITE_CSOCK_NAME at this process's own socket
        await #expect(throws: PCSCError(.noService, "")) { try await PCSCContext.establish() }
    }

    @Test func noReaderCardOrNameWithinTheBound() async throws {
        try await Self.withContext { (_, context) async throws in
            #expect(try await context.readers() == [Self.reader, "Virtual PCD 00 01"])
            #expect(try await context.waitForReader(within: .zero) == Self.reader)
            await #expect(throws: PCSCError(.noReader, "")) { try await context.waitForReader(named: "No Such Reader", within: .milliseconds(300)) }
            await #expect(throws: PCSCError(.noCard, "")) { try await context.waitForCard(in: Self.reader, within: .milliseconds(300)) }
            await #expect(throws: PCSCError(.noCard, "")) { try await context.waitForCard(within: .milliseconds(300)) }
            await #expect(throws: PCSCError(.unknownReader, "")) { try await context.waitForCard(in: "No Such Reader", within: .seconds(1)) }
            await #expect(throws: PCSCError(.noCard, "")) { try await context.connect(to: Self.reader) }
        }
    }

    @Test func cancellingAWaitEndsItAtOnce() async throws {
        try await Self.withContext { (_, context) async throws in
            let bound = Duration.seconds(60)
            let start = ContinuousClock.now
            let wait = Task { try await context.waitForCard(in: Self.reader, within: bound) }
            wait.cancel()
            await #expect(throws: PCSCError(.cancelled, "")) { try await wait.value }
            // Far within the bound, wherever the cancellation found the wait: before pcscd (the
            // next slice of the wait, PCSCContext.waitSlice) or in it (SCardCancel).
            #expect(ContinuousClock.now - start < bound / 2)
        }
    }

    @Test func shortAndExtendedAPDUs() async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (card, connection) = try await Self.insertCard(daemon, into: context)
            defer { card.cancel() }
            #expect(connection.transmissionProtocol == .t1)
            let status = try await connection.status()
            #expect(status.reader == Self.reader)
            #expect(status.atr == Self.atr)
            #expect(status.isPresent)
            #expect(status.isPowered)

            #expect(try await connection.transmit(Self.select) == [0x90, 0x00])
            #expect(try await connection.transmit([0x00, 0xA4, 0x04, 0x00, 0x02, 0xD2, 0x76, 0x00]) == [0x6A, 0x82])
            let short = (0..<255).map { UInt8($0) }
            #expect(try await connection.transmit([0x00, 0xC3, 0x00, 0x00, 0xFF] + short + [0x00]) == short + [0x90, 0x00])

            // The longest command vpicc carries: 65535 octets, 65526 of data with Lc and Le.
            let data = (0..<65526).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let command = Self.extended(0xC3, data: data, le: 65536)
            #expect(command.count == VPICCFrame.maximumPayloadLength)
            #expect(try await connection.transmit(command) == data + [0x90, 0x00])
            // Le 65536: the card answers the 65533 octets a vpicc frame carries beside the status word.
            let read = try await connection.transmit(Self.extended(0xB0, data: [], le: 65536))
            #expect(read.count == VPICCFrame.maximumPayloadLength)
            #expect(read.suffix(2) == [0x90, 0x00])

            // Above the longest extended APDU: refused before pcscd.
            await #expect(throws: PCSCError(.invalidCommand, "")) {
                try await connection.transmit(Self.extended(0xC3, data: [UInt8](repeating: 0, count: 65535), le: 65536) + [0])
            }
            // The shortest command, its header (case 1), and the shortest answer, a status word.
            #expect(try await connection.transmit([0x00, 0xA4, 0x04, 0x00]) == [0x6A, 0x82])
            await #expect(throws: PCSCError(.invalidCommand, "")) { try await connection.transmit([0x00, 0xA4, 0x04]) }
        }
    }

    /// A command vpcd cannot frame (over 65535 octets) makes vpcd drop the card; the card
    /// connects again and is seen again.
    @Test(arguments: [VPICCFrame.maximumPayloadLength + 1, PCSCCard.maximumCommandLength])
    func vpcdDropsTheCardAndTakesItBack(commandLength: Int) async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (card, connection) = try await Self.insertCard(daemon, into: context)
            let data = [UInt8](repeating: 0x33, count: commandLength - 9)
            await #expect(throws: PCSCError(.notTransacted, "")) { try await connection.transmit(Self.extended(0xC3, data: data, le: 65536)) }
            // vpcd closed the card's connection: its run returns, and pcscd sees the card gone.
            try await card.value
            try await context.waitForCardRemoval(in: Self.reader, within: Self.arrivalBound)
            await #expect(throws: PCSCError(.cardRemoved, "")) { try await connection.transmit(Self.select) }

            let (again, reconnected) = try await Self.insertCard(daemon, into: context)
            defer { again.cancel() }
            #expect(try await reconnected.transmit(Self.select) == [0x90, 0x00])
        }
    }

    @Test func theVirtualReadersLargestAPDU() async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (card, connection) = try await Self.insertCard(daemon, into: context)
            defer { card.cancel() }
            // vsmartcard 0.9 and later report 65536 octets (PC/SC part 10 dwMaxAPDUDataSize);
            // Debian 12's vpcd 0.8 does not implement SCardControl, which leaves it unknown.
            let size = try await connection.maximumAPDUDataSize()
            #expect(size == nil || size == 65536)
        }
    }

    @Test func cardRemovedDuringACommand() async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (held, heldContinuation) = AsyncStream<Void>.makeStream()
            let (card, connection) = try await Self.insertCard(daemon, into: context, held: heldContinuation)
            #expect(try await connection.transmit(Self.select) == [0x90, 0x00])
            let exchange = Task { try await connection.transmit([0x80, 0x70, 0x00, 0x00]) }
            for await _ in held { break }
            card.cancel()
            try await card.value
            await #expect {
                try await exchange.value
            } throws: { error in
                guard let error = error as? PCSCError else { return false }
                return error.code == .notTransacted || error.code == .cardRemoved
            }
            try await context.waitForCardRemoval(in: Self.reader, within: Self.arrivalBound)
            await #expect(throws: PCSCError(.cardRemoved, "")) { try await connection.transmit(Self.select) }
            await #expect(throws: PCSCError(.cardRemoved, "")) { try await connection.status() }
        }
    }

    @Test func pcscdEndingUnderAConnection() async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (card, connection) = try await Self.insertCard(daemon, into: context)
            defer { card.cancel() }
            daemon.stop()
            await #expect {
                try await connection.transmit(Self.select)
            } throws: { error in
                (error as? PCSCError)?.code == .noService
            }
        }
    }

    /// The round trip of an APDU through pcscd and vpcd, and a 64 KiB APDU each way; printed, not
    /// judged (the numbers depend on the machine).
    @Test func roundTripAndThroughput() async throws {
        try await Self.withContext { (daemon, context) async throws in
            let (card, connection) = try await Self.insertCard(daemon, into: context)
            defer { card.cancel() }
            let clock = ContinuousClock()
            let rounds = 50
            var start = clock.now
            for _ in 0..<rounds { _ = try await connection.transmit(Self.select) }
            let short = clock.now - start
            let data = [UInt8](repeating: 0xA5, count: 65526)
            let command = Self.extended(0xC3, data: data, le: 65536)
            let large = 10
            start = clock.now
            for _ in 0..<large { #expect(try await connection.transmit(command).count == data.count + 2) }
            let extended = clock.now - start
            let perShort = short / rounds
            let perLarge = extended / large
            let seconds = Double(perLarge.components.seconds) + Double(perLarge.components.attoseconds) / 1e18
            let rate = Double(2 * data.count) / seconds / 1024
            print("pcscd + vpcd: \(perShort) per short APDU (\(rounds) SELECTs); \(perLarge) per 64 KiB APDU each way (\(large) ENVELOPEs of \(data.count) octets echoed): \(Int(rate)) KiB/s")
        }
    }
}
