import FuzzSupport
import MdocDBus
import NIOCore
import NIOEmbedded

/// What a bus or a peer on it sends (D-Bus Specification, "Message Format", "Marshaling"): the
/// input as the byte stream of a connection after authentication, fed in pieces of its first
/// octet's size through the connection's message decoder, which cuts it into messages and reads
/// every header field and argument.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDBus(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let first = bytes.first else { return 0 }
    let piece = Int(first % 64) + 1
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(DBusMessageDecoder()))
    defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
    var index = 1
    while index < bytes.count {
        let end = min(bytes.count, index + piece)
        guard (try? channel.writeInbound(ByteBuffer(bytes: bytes[index..<end]))) != nil else { return 0 }
        index = end
        while let message = try? channel.readInbound(as: DBusMessage.self) {
            _ = message.hashValue
        }
    }
    return 0
}
