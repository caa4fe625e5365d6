/// Joins the chunks of one 18013-5 message as they arrive on Client2Server or Server2Client
/// (ISO/IEC 18013-5 8.3.3.1.1.6).
///
/// Chunks may be shorter than the chunk size the ATT_MTU allows: some senders use smaller ones
/// and receivers must not require full chunks. The message is complete at the chunk whose header
/// is 0x00. Limits bound what a peer can make this side hold.
public struct MessageReassembler: Sendable {
    /// The largest message accepted, 4 MiB. ISO/IEC 18013-5 sets no bound; an mDL
    /// DeviceResponse with a portrait and a signature image stays well below 1 MiB, so this
    /// leaves room for several documents while bounding the memory a peer can make us hold.
    public static let maximumMessageSize = 4 * 1024 * 1024
    /// The most chunks in one message, 262,144: a maximum-size message sent in the smallest
    /// chunks, 19 message octets at the LE minimum ATT_MTU of 23, needs 220,753. Chunks carrying
    /// fewer octets (even none) are legal, so this bounds the work a peer can cause.
    public static let maximumChunkCount = 1 << 18

    /// The ATT_MTU of the link; a chunk above ATT_MTU − 3 octets could not have been carried by
    /// a Write Command or a notification (Core Vol 3 Part F 3.4.5.3, 3.4.7.1).
    public var mtu: Int
    private var buffer: [UInt8] = []
    private var chunkCount = 0

    /// A reassembler for a link with ATT_MTU `mtu`.
    public init(mtu: Int) {
        self.mtu = mtu
    }

    /// Whether part of a message has arrived and its last chunk has not.
    public var hasPartialMessage: Bool { chunkCount > 0 }

    /// Adds one chunk; returns the message when `chunk` is its last (header 0x00).
    ///
    /// Throws `invalidChunkHeader` for an empty chunk or a header other than 0x00 and 0x01,
    /// `pduTooLarge` for a chunk above ATT_MTU − 3 octets, `messageTooLarge` beyond
    /// ``maximumMessageSize`` and `tooManyChunks` beyond ``maximumChunkCount``. After an error
    /// the partial message is dropped.
    public mutating func append(_ chunk: [UInt8]) throws(BLEError) -> [UInt8]? {
        do {
            return try accept(chunk)
        } catch {
            reset()
            throw error
        }
    }

    /// Drops any partial message, as State 0x01 does on the GATT server (ISO/IEC 18013-5 8.3.3.1.1.5).
    public mutating func reset() {
        buffer = []
        chunkCount = 0
    }

    private mutating func accept(_ chunk: [UInt8]) throws(BLEError) -> [UInt8]? {
        let limit = max(mtu, GATTServer.defaultMTU) - 3
        guard chunk.count <= limit else {
            throw BLEError(.pduTooLarge,
                           "a message chunk of \(chunk.count) bytes exceeds ATT_MTU \(mtu) − 3 = \(limit) (chunk \(chunkCount + 1))")
        }
        guard let header = chunk.first,
              header == MessageChunker.lastChunkHeader || header == MessageChunker.moreChunksHeader else {
            let found = chunk.first.map { $0 < 0x10 ? "0x0" + String($0, radix: 16) : "0x" + String($0, radix: 16) }
                ?? "nothing"
            throw BLEError(.invalidChunkHeader,
                           "chunk \(chunkCount + 1) starts with \(found), not 0x00 (last) or 0x01 (more follow)")
        }
        guard chunkCount < Self.maximumChunkCount else {
            throw BLEError(.tooManyChunks,
                           "a message arrived in more than \(Self.maximumChunkCount) chunks")
        }
        guard buffer.count + chunk.count - 1 <= Self.maximumMessageSize else {
            throw BLEError(.messageTooLarge,
                           "a message grows beyond \(Self.maximumMessageSize) bytes at chunk \(chunkCount + 1)")
        }
        chunkCount += 1
        buffer += chunk.dropFirst()
        guard header == MessageChunker.lastChunkHeader else { return nil }
        defer { reset() }
        return buffer
    }
}
