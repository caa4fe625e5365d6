import FuzzSupport
import MdocBLE

/// 18013-5 message reassembly from BLE chunks (8.3.3.1.1.6): the first two octets choose the
/// ATT_MTU, the rest are length-prefixed chunks appended in order.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBLEReassembly(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    guard bytes.count >= 2 else { return 0 }
    let mtu = 23 + (Int(bytes[0]) << 8 | Int(bytes[1])) % (517 - 23 + 1)
    var reassembler = MessageReassembler(mtu: mtu)
    for chunk in FuzzInput.parts(of: Array(bytes.dropFirst(2)), limit: 64) {
        do {
            _ = try reassembler.append(chunk)
        } catch {
            reassembler.reset()
        }
    }
    return 0
}
