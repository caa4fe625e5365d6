import FuzzSupport
import MdocPCSC
import NIOCore
import NIOEmbedded

/// What vpcd sends a virtual card (vsmartcard's vpcd.c: two big-endian length octets, then a
/// control octet or a command APDU): the input as the byte stream of the card's connection, fed
/// in pieces of its first octet's size through the card's frame decoder, then its end.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVPICC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(VPICCFrameDecoder()))
    defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
    FuzzStream.feed(FuzzInput.bytes(data, size), maximumPiece: 64, into: channel, as: VPICCMessage.self) { message in
        _ = message.hashValue
    }
    return 0
}
