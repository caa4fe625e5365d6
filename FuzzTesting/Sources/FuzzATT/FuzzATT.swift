import Foundation
import FuzzSupport
import MdocBLE

/// ATT PDUs as a GATT server receives them from a client (Core Vol 3 Part F 3.4): up to 16
/// length-prefixed PDUs decoded and handed to a GATT server hosting the 18013-5 service in
/// mdoc central client mode (the one with Ident).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATT(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var server = GATTServer(services: [service])
    for pdu in FuzzInput.parts(of: FuzzInput.bytes(data, size), limit: 16) {
        _ = try? ATTPDU(bytes: pdu)
        _ = server.receive(pdu)
    }
    return 0
}

private let service = MdocGATTProfile.service(
    mode: .centralClient, serviceUUID: UUID(uuidString: "45EFEF74-2B2C-4837-A9A3-B0E1D05A6917")!, ident: Array(repeating: 0xA5, count: 16))
