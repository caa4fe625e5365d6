import MdocBLE

/// A way a hostile peer breaks the chunking of one 18013-5 message (ISO/IEC 18013-5
/// 8.3.3.1.1.6): what the receiving program's reassembly must reject or survive.
package enum ChunkFault: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The second chunk is never sent.
    case dropped
    /// The second chunk is sent twice.
    case duplicated
    /// The second and third chunks are sent in each other's place.
    case reordered
    /// The first chunk carries ATT_MTU − 3 + 1 octets.
    case oversized
    /// The first chunk's header is 0x02, neither 0x00 (last) nor 0x01 (more).
    case badHeader
    /// A message one octet over ``MessageReassembler/maximumMessageSize``.
    case overLimit

    /// The payload of each chunk a hostile peer cuts: smaller than a link allows, which is
    /// legal, so a short message still makes the several chunks the faults need.
    package static let pieceSize = 48

    package var description: String { rawValue }

    /// What a holder reports when a hostile reader's request arrives broken by this fault.
    package var holderFailure: String {
        switch self {
        case .dropped, .duplicated, .reordered: return "the session failed: the first message is not SessionEstablishment"
        case .oversized: return "pduTooLarge"
        case .badHeader: return "invalidChunkHeader"
        case .overLimit: return "messageTooLarge"
        }
    }

    /// What a reader reports when a hostile holder's response arrives broken by this fault: the
    /// response is mostly ciphertext, so two chunks in each other's place keep its CBOR
    /// well-formed and fail its decryption, while a missing or doubled chunk breaks the CBOR.
    package var readerFailure: String {
        switch self {
        case .dropped, .duplicated: return "the session failed: the message from the mdoc is not SessionData"
        case .reordered: return "the session failed: message 1 from the mdoc did not decrypt"
        case .oversized: return "pduTooLarge"
        case .badHeader: return "invalidChunkHeader"
        case .overLimit: return "messageTooLarge"
        }
    }

    /// The chunks sent for `message` on a link with ATT_MTU `mtu`, broken as named.
    package func chunks(of message: [UInt8], mtu: Int) -> [[UInt8]] {
        var chunks = Self.pieces(of: message)
        switch self {
        case .dropped:
            chunks.remove(at: 1)
        case .duplicated:
            chunks.insert(chunks[1], at: 1)
        case .reordered:
            chunks.swapAt(1, 2)
        case .oversized:
            var oversized: [UInt8] = [MessageChunker.moreChunksHeader]
            oversized.append(contentsOf: repeatElement(0xA0, count: mtu - 3))
            chunks.insert(oversized, at: 0)
        case .badHeader:
            chunks[0][0] = 0x02
        case .overLimit:
            return Self.flood(bytes: MessageReassembler.maximumMessageSize + 1, mtu: mtu)
        }
        return chunks
    }

    /// `message` in chunks of ``pieceSize`` payload octets with correct headers.
    package static func pieces(of message: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: message.count, by: pieceSize).map { (start: Int) -> [UInt8] in
            let end = min(start + pieceSize, message.count)
            let header: UInt8 = end == message.count ? MessageChunker.lastChunkHeader : MessageChunker.moreChunksHeader
            var chunk: [UInt8] = [header]
            chunk.append(contentsOf: message[start..<end])
            return chunk
        }
    }

    /// A message of `bytes` octets (not CBOR) in the largest chunks `mtu` allows.
    package static func flood(bytes: Int, mtu: Int) -> [[UInt8]] {
        let payload = MessageChunker.chunkSize(mtu: mtu) - 1
        let count = (bytes + payload - 1) / payload
        return (0..<count).map { (index: Int) -> [UInt8] in
            let last = index == count - 1
            let header: UInt8 = last ? MessageChunker.lastChunkHeader : MessageChunker.moreChunksHeader
            var chunk: [UInt8] = [header]
            chunk.append(contentsOf: repeatElement(0xA5, count: last ? bytes - payload * (count - 1) : payload))
            return chunk
        }
    }
}
