import FuzzSupport
import MdocLEHost
import NIOCore
import NIOEmbedded

/// What a controller sends the host (Core Vol 4 Part A 2, Part E 5.4): the input as an H4 byte
/// stream, fed in pieces of its first octet's size through the transport's H4 decoder; events
/// into HCIEvent, ACL data into L2CAP basic frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(H4PacketDecoder()))
    defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
    var l2cap = L2CAPReassembler()
    FuzzStream.feed(FuzzInput.bytes(data, size), maximumPiece: 32, into: channel, as: HCIPacket.self) { packet in
        switch packet {
        case .event(let code, let parameters):
            _ = try? HCIEvent(code: code, parameters: parameters)
        case .aclData(let acl):
            _ = try? l2cap.append(acl)
        default:
            break
        }
    }
    return 0
}
