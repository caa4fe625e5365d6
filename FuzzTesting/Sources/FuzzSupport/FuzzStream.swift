import NIOCore
import NIOEmbedded

/// How the targets of a stream decoder read their input: its first octet sets the size of the
/// pieces, 1 to `maximumPiece` octets, in which the rest arrives, as a socket or a serial line
/// hands a stream over in reads of any size.
public enum FuzzStream {
    /// Writes the stream in `bytes` (after its first octet) into `channel` piece by piece and
    /// hands each message the channel decodes to `body`; stops when the channel fails.
    public static func feed<Message>(
        _ bytes: [UInt8], maximumPiece: Int, into channel: EmbeddedChannel, as type: Message.Type, _ body: (Message) -> Void
    ) {
        guard let first = bytes.first else { return }
        let piece = Int(first) % maximumPiece + 1
        var index = 1
        while index < bytes.count {
            let end = min(bytes.count, index + piece)
            guard (try? channel.writeInbound(ByteBuffer(bytes: bytes[index..<end]))) != nil else { return }
            index = end
            while let message = try? channel.readInbound(as: type) {
                body(message)
            }
        }
    }
}
