@testable import MdocBLE
import Testing

@Suite("Message chunking and reassembly (ISO/IEC 18013-5 8.3.3.1.1.6)")
struct MdocMessageChunkingTests {
    static func message(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    static func error(_ body: () throws(BLEError) -> Void) -> BLEError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("chunk size is min(512, ATT_MTU − 3); below the LE minimum ATT_MTU counts as 23")
    func chunkSize() {
        #expect(MessageChunker.chunkSize(mtu: 23) == 20)
        #expect(MessageChunker.chunkSize(mtu: 100) == 97)
        #expect(MessageChunker.chunkSize(mtu: 515) == 512)
        #expect(MessageChunker.chunkSize(mtu: 517) == 512)
        #expect(MessageChunker.chunkSize(mtu: 5) == 20)
    }

    @Test("writes are at most 510 octets: BlueZ 5.63 to 5.68 drop a written value of 511 or 512")
    func writeChunkSize() {
        #expect(MessageChunker.maximumWriteChunkSize == 510)
        #expect(MessageChunker.chunkSize(mtu: 513, limit: MessageChunker.maximumWriteChunkSize) == 510)
        #expect(MessageChunker.chunkSize(mtu: 512, limit: MessageChunker.maximumWriteChunkSize) == 509)
        #expect(MessageChunker.chunkSize(mtu: 515, limit: MessageChunker.maximumWriteChunkSize) == 510)
        #expect(MessageChunker.chunkSize(mtu: 23, limit: MessageChunker.maximumWriteChunkSize) == 20)
        // A limit above the attribute value limit does not lift it.
        #expect(MessageChunker.chunkSize(mtu: 517, limit: 600) == 512)
        let chunks = MessageChunker.chunks(of: Self.message(1385), mtu: 517, limit: MessageChunker.maximumWriteChunkSize)
        #expect(chunks.map(\.count) == [510, 510, 368])
        #expect(chunks.flatMap { $0.dropFirst() } == Self.message(1385))
    }

    @Test("ATT_MTU 23: chunks of 20 bytes, headers 0x01 then 0x00 on the last")
    func chunksAtMinimumMTU() {
        let chunks = MessageChunker.chunks(of: Self.message(50), mtu: 23)
        #expect(chunks.map(\.count) == [20, 20, 13])
        #expect(chunks.map { $0.first } == [0x01, 0x01, 0x00])
        #expect(chunks.flatMap { $0.dropFirst() } == Self.message(50))
    }

    @Test("chunks of at most n octets: n from 2 (a header and one octet) up to what the link allows",
          arguments: [(1, [2, 2, 2, 2, 2]), (2, [2, 2, 2, 2, 2]), (3, [3, 3, 2]), (20, [6]), (600, [6])])
    func chunksOfAtMost(size: Int, counts: [Int]) {
        let chunks = MessageChunker.chunks(of: Self.message(5), mtu: 517, chunking: .atMost(size))
        #expect(chunks.map(\.count) == counts)
        #expect(chunks.dropLast().allSatisfy { $0.first == MessageChunker.moreChunksHeader })
        #expect(chunks.last?.first == MessageChunker.lastChunkHeader)
        #expect(chunks.flatMap { $0.dropFirst() } == Self.message(5))
        // Never over ATT_MTU − 3, whatever n.
        #expect(MessageChunker.chunks(of: Self.message(50), mtu: 23, chunking: .atMost(100)).map(\.count) == [20, 20, 13])
    }

    @Test("a last chunk of one octet: full chunks before it, a one-octet message in one chunk",
          arguments: [(50, [20, 20, 12, 2]), (39, [20, 20, 2]), (19, [19, 2]), (2, [2, 2]), (1, [2])])
    func lastOctetAlone(size: Int, counts: [Int]) {
        let chunks = MessageChunker.chunks(of: Self.message(size), mtu: 23, chunking: .lastOctetAlone)
        #expect(chunks.map(\.count) == counts)
        #expect(chunks.dropLast().allSatisfy { $0.first == MessageChunker.moreChunksHeader })
        #expect(chunks.last?.first == MessageChunker.lastChunkHeader)
        #expect(chunks.flatMap { $0.dropFirst() } == Self.message(size))
        var reassembler = MessageReassembler(mtu: 23)
        var message: [UInt8]?
        for chunk in chunks { message = try? reassembler.append(chunk) }
        #expect(message == Self.message(size))
    }

    @Test("a message filling whole chunks ends with a full 0x00 chunk, not an empty one")
    func exactMultiple() {
        #expect(MessageChunker.chunks(of: Self.message(19), mtu: 23).map(\.count) == [20])
        #expect(MessageChunker.chunks(of: Self.message(38), mtu: 23).map(\.count) == [20, 20])
        #expect(MessageChunker.chunks(of: Self.message(39), mtu: 23).map(\.count) == [20, 20, 2])
    }

    @Test("chunkCount is the number of chunks cut, at each side of a chunk's payload",
          arguments: [(23, MessageChunker.maximumChunkSize), (517, MessageChunker.maximumChunkSize),
                      (517, MessageChunker.maximumWriteChunkSize)])
    func chunkCountMatchesTheChunks(mtu: Int, limit: Int) {
        let payload = MessageChunker.chunkSize(mtu: mtu, limit: limit) - 1
        for size in [0, 1, payload - 1, payload, payload + 1, 2 * payload, 2 * payload + 1, 20_000] {
            #expect(MessageChunker.chunkCount(messageSize: size, mtu: mtu, limit: limit)
                    == MessageChunker.chunks(of: Self.message(size), mtu: mtu, limit: limit).count, "\(size) octets")
        }
    }

    @Test("an empty message is the single chunk 0x00")
    func emptyMessage() throws {
        #expect(MessageChunker.chunks(of: [], mtu: 515) == [[0x00]])
        var reassembler = MessageReassembler(mtu: 515)
        #expect(try reassembler.append([0x00]) == [])
    }

    @Test("a 20 KB message round-trips at ATT_MTU 23 and 515", arguments: [23, 515])
    func roundTrip(mtu: Int) throws {
        let message = Self.message(20 * 1024)
        let chunks = MessageChunker.chunks(of: message, mtu: mtu)
        #expect(chunks.allSatisfy { $0.count <= MessageChunker.chunkSize(mtu: mtu) })
        #expect(chunks.count == (message.count + MessageChunker.chunkSize(mtu: mtu) - 2) / (MessageChunker.chunkSize(mtu: mtu) - 1))
        var reassembler = MessageReassembler(mtu: mtu)
        var result: [UInt8]?
        for (index, chunk) in chunks.enumerated() {
            result = try reassembler.append(chunk)
            #expect((result == nil) == (index < chunks.count - 1))
        }
        #expect(result == message)
        #expect(!reassembler.hasPartialMessage)
    }

    @Test("chunks shorter than the chunk size, even header-only ones, are accepted")
    func shortChunks() throws {
        var reassembler = MessageReassembler(mtu: 515)
        #expect(try reassembler.append([0x01, 0xAA]) == nil)
        #expect(try reassembler.append([0x01]) == nil)
        #expect(reassembler.hasPartialMessage)
        #expect(try reassembler.append([0x00, 0xBB, 0xCC]) == [0xAA, 0xBB, 0xCC])
        #expect(try reassembler.append([0x00, 0x01]) == [0x01])
    }

    @Test("headers other than 0x00 and 0x01, and empty chunks, are rejected", arguments: [[0x02], [0xFF, 1, 2], [0x80], []] as [[UInt8]])
    func badHeader(chunk: [UInt8]) throws {
        var reassembler = MessageReassembler(mtu: 515)
        _ = try reassembler.append([0x01, 9, 9])
        #expect(Self.error { () throws(BLEError) in _ = try reassembler.append(chunk) } == .invalidChunkHeader)
        // The partial message was dropped; the next one stands alone.
        #expect(!reassembler.hasPartialMessage)
        #expect(try reassembler.append([0x00, 5]) == [5])
    }

    @Test("a chunk of ATT_MTU − 3 bytes is accepted, one more is rejected", arguments: [23, 185, 517])
    func chunkAboveMTU(mtu: Int) throws {
        var reassembler = MessageReassembler(mtu: mtu)
        #expect(try reassembler.append([0x00] + Self.message(mtu - 4))?.count == mtu - 4)
        #expect(Self.error { () throws(BLEError) in _ = try reassembler.append([0x00] + Self.message(mtu - 3)) } == .pduTooLarge)
    }

    @Test("a message of maximumMessageSize bytes is accepted, one more byte is rejected")
    func messageSizeLimit() throws {
        let limit = MessageReassembler.maximumMessageSize
        var reassembler = MessageReassembler(mtu: 515)
        var result: [UInt8]?
        for chunk in MessageChunker.chunks(of: [UInt8](repeating: 7, count: limit), mtu: 515) {
            result = try reassembler.append(chunk)
        }
        #expect(result?.count == limit)

        let chunks = MessageChunker.chunks(of: [UInt8](repeating: 7, count: limit + 1), mtu: 515)
        for chunk in chunks.dropLast() { _ = try reassembler.append(chunk) }
        #expect(Self.error { () throws(BLEError) in _ = try reassembler.append(chunks[chunks.count - 1]) } == .messageTooLarge)
        #expect(!reassembler.hasPartialMessage)
    }

    @Test("a message in maximumChunkCount chunks is accepted, one more chunk is rejected")
    func chunkCountLimit() throws {
        let limit = MessageReassembler.maximumChunkCount
        var reassembler = MessageReassembler(mtu: 23)
        for _ in 1..<limit { _ = try reassembler.append([0x01]) }
        #expect(try reassembler.append([0x00, 42]) == [42])

        for _ in 1...limit { _ = try reassembler.append([0x01]) }
        #expect(Self.error { () throws(BLEError) in _ = try reassembler.append([0x00, 42]) } == .tooManyChunks)
    }

    @Test("reset drops a partial message")
    func reset() throws {
        var reassembler = MessageReassembler(mtu: 23)
        _ = try reassembler.append([0x01, 1, 2])
        reassembler.reset()
        #expect(!reassembler.hasPartialMessage)
        #expect(try reassembler.append([0x00, 3]) == [3])
    }
}
