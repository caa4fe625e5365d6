import FuzzSupport
import MdocBLE

/// What a controller sends the host (Core Vol 4 Part A 2, Part E 5.4): the input as an H4 byte
/// stream, fed in pieces of its first octet's size; each packet decoded, events into HCIEvent,
/// ACL data into L2CAP basic frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard let first = bytes.first else { return 0 }
    let piece = Int(first % 32) + 1
    var parser = H4PacketParser()
    var l2cap = L2CAPReassembler()
    var index = 1
    while index < bytes.count {
        let end = min(bytes.count, index + piece)
        guard let packets = try? parser.append(bytes[index..<end]) else { return 0 }
        index = end
        for packet in packets {
            switch try? HCIPacket(h4: packet) {
            case .event(let code, let parameters):
                _ = try? HCIEvent(code: code, parameters: parameters)
            case .aclData(let acl):
                _ = try? l2cap.append(acl)
            default:
                break
            }
        }
    }
    return 0
}
