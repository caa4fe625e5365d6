/// How one side of an ISO/IEC 18013-5 BLE link sizes it: the ATT_MTU it takes in the Exchange MTU
/// of 8.3.3.1.1.4, and how it cuts the messages it sends into the chunks of 8.3.3.1.1.6.
///
/// ``standard`` is what every session uses: the largest ATT_MTU that is of use, and every chunk
/// as large as the link allows. A conformance runner departs from it on purpose, to see whether
/// the peer under test copes with a small ATT_MTU, with chunks shorter than the link allows, or
/// with a last chunk of one octet; 8.3.3.1.1.6 bounds a chunk's size from above only, so each
/// of these is a link a correct peer works over.
package struct MdocLinkSizing: Sendable, Hashable, CustomStringConvertible {
    /// How messages are cut into chunks.
    package enum Chunking: Sendable, Hashable {
        /// Every chunk as large as the link allows but the last: min(limit, ATT_MTU − 3) octets.
        case full
        /// No chunk over this many octets, header included, however large the ATT_MTU.
        case atMost(Int)
        /// Full chunks, but the last one carries a single octet of the message: a message that
        /// would fit one chunk leaves in two.
        case lastOctetAlone
    }

    /// The ATT_MTU this side takes: the Client Rx MTU of its Exchange MTU Request as GATT
    /// client, the Server Rx MTU of its response as GATT server (Core Vol 3 Part F 3.4.2); `nil`
    /// for the usual one (``MdocGATTClientTransport/requestedMTU``, ``GATTServer/serverReceiveMTU``).
    /// The link's ATT_MTU is the smaller of the two sides'.
    package var receiveMTU: Int?
    /// How the messages this side sends are cut.
    package var chunking: Chunking
    /// How long this side waits before it sends the last chunk of a message of several, the
    /// others sent; `nil`: it sends them all together.
    package var pauseBeforeLastChunk: Duration?

    /// A sizing taking `receiveMTU`, cutting as `chunking` says and waiting
    /// `pauseBeforeLastChunk` before each message's last chunk.
    package init(receiveMTU: Int? = nil, chunking: Chunking = .full, pauseBeforeLastChunk: Duration? = nil) {
        self.receiveMTU = receiveMTU
        self.chunking = chunking
        self.pauseBeforeLastChunk = pauseBeforeLastChunk
    }

    /// The usual sizing.
    package static let standard = MdocLinkSizing()

    /// The sizing in words, as conformance reports name it.
    package var description: String {
        var parts: [String] = []
        if let receiveMTU { parts.append("ATT_MTU at most \(receiveMTU)") }
        switch chunking {
        case .full: break
        case .atMost(let size): parts.append("chunks of at most \(size) octets")
        case .lastOctetAlone: parts.append("a last chunk of one octet")
        }
        if let pauseBeforeLastChunk { parts.append("a pause of \(pauseBeforeLastChunk.components.seconds) s before the last chunk") }
        return parts.isEmpty ? "the usual sizing" : parts.joined(separator: ", ")
    }
}
