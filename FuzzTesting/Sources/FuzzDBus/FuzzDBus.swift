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
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(DBusMessageDecoder()))
    defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
    FuzzStream.feed(FuzzInput.bytes(data, size), maximumPiece: 64, into: channel, as: DBusMessage.self) { message in
        _ = message.hashValue
    }
    return 0
}
