/// Splits an 18013-5 message into the chunks carried by Client2Server writes or Server2Client
/// notifications (ISO/IEC 18013-5 8.3.3.1.1.6).
///
/// Each chunk is a one-octet header, ``moreChunksHeader`` (0x01) when more chunks follow and
/// ``lastChunkHeader`` (0x00) on the last one, followed by message bytes.
public struct MessageChunker: Sendable {
    /// Header of a chunk that more chunks of the same message follow (ISO/IEC 18013-5 8.3.3.1.1.6).
    public static let moreChunksHeader: UInt8 = 0x01
    /// Header of the last chunk of a message (ISO/IEC 18013-5 8.3.3.1.1.6).
    public static let lastChunkHeader: UInt8 = 0x00

    /// The largest chunk, header included: an attribute value is at most 512 octets
    /// (Bluetooth Core Vol 3 Part F 3.2.9).
    public static let maximumChunkSize = GATTServer.maximumAttributeValueLength

    /// The largest chunk a GATT client writes to Client2Server, header included: 510 octets.
    /// BlueZ 5.63 to 5.68 as GATT server (bluetoothd, and so every Linux holder or reader on
    /// Debian 12 or Ubuntu 22.04) check the 512-octet limit of Core Vol 3 Part F 3.2.9 against
    /// the attribute handle and the value together, and drop a Write Command whose value is 511
    /// or 512 octets without a word. Chunks may be shorter than ATT_MTU − 3 (8.3.3.1.1.6), so
    /// every peer takes these.
    public static let maximumWriteChunkSize = maximumChunkSize - 2

    /// The chunk size for `mtu`: min(`limit`, ATT_MTU − 3), the value a Write Command or Handle
    /// Value Notification carries (ISO/IEC 18013-5 8.3.3.1.1.6, Core Vol 3 Part F 3.4.5.3,
    /// 3.4.7.1). `limit` is ``maximumChunkSize`` for notifications and
    /// ``maximumWriteChunkSize`` for writes. An ATT_MTU below the LE minimum of 23 counts as 23
    /// (Core Vol 3 Part F 3.2.8).
    public static func chunkSize(mtu: Int, limit: Int = maximumChunkSize) -> Int {
        min(limit, maximumChunkSize, max(mtu, GATTServer.defaultMTU) - 3)
    }

    /// `message` as chunks of at most ``chunkSize(mtu:limit:)`` octets, every one full except
    /// the last; an empty message is the single chunk `[0x00]`.
    public static func chunks(of message: [UInt8], mtu: Int, limit: Int = maximumChunkSize) -> [[UInt8]] {
        let payloadSize = chunkSize(mtu: mtu, limit: limit) - 1
        var chunks: [[UInt8]] = []
        chunks.reserveCapacity(chunkCount(messageSize: message.count, mtu: mtu, limit: limit))
        var start = message.startIndex
        repeat {
            let end = min(start + payloadSize, message.endIndex)
            let header = end == message.endIndex ? lastChunkHeader : moreChunksHeader
            chunks.append([header] + message[start..<end])
            start = end
        } while start < message.endIndex
        return chunks
    }

    /// How many chunks ``chunks(of:mtu:limit:)`` cuts a message of `messageSize` octets into: one
    /// for an empty message, else the message over the payload of a chunk, rounded up.
    public static func chunkCount(messageSize: Int, mtu: Int, limit: Int = maximumChunkSize) -> Int {
        let payloadSize = chunkSize(mtu: mtu, limit: limit) - 1
        return max(1, (messageSize + payloadSize - 1) / payloadSize)
    }

    /// `message` as chunks cut as `chunking` says, none over ``chunkSize(mtu:limit:)`` octets:
    /// ``chunks(of:mtu:limit:)`` for `.full`; for `.atMost(n)`, chunks of at most n octets (2 at
    /// least: a header and one octet); for `.lastOctetAlone`, full chunks and a last chunk
    /// holding the message's last octet alone. Chunks shorter than ATT_MTU − 3 are still chunks
    /// of 8.3.3.1.1.6, which bounds their size from above only.
    package static func chunks(of message: [UInt8], mtu: Int, limit: Int = maximumChunkSize,
                               chunking: MdocLinkSizing.Chunking) -> [[UInt8]] {
        switch chunking {
        case .full:
            return chunks(of: message, mtu: mtu, limit: limit)
        case .atMost(let size):
            return chunks(of: message, mtu: mtu, limit: min(limit, max(size, 2)))
        case .lastOctetAlone:
            guard let last = message.last else { return chunks(of: message, mtu: mtu, limit: limit) }
            var cut = chunks(of: Array(message.dropLast()), mtu: mtu, limit: limit)
            if message.count > 1 { cut[cut.count - 1][0] = moreChunksHeader } else { cut.removeAll() }
            cut.append([lastChunkHeader, last])
            return cut
        }
    }
}
