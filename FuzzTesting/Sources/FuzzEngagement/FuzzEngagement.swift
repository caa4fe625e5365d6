import FuzzSupport
import MdocCBOR
import MdocModel
import MdocSession

/// Device engagement as a reader meets it (ISO/IEC 18013-5 8.2.1, 8.2.2.3): the input as the
/// text of an `mdoc:` URI and as DeviceEngagement bytes, then its EDeviceKey and BLE Ident.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngagement(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let uri = try? MdocURI(String(decoding: bytes, as: UTF8.self)) {
        inspect(uri.deviceEngagementBytes)
    }
    if let engagement = try? EmbeddedCBOR<DeviceEngagement>(encoded: bytes) {
        inspect(engagement)
    }
    return 0
}

private func inspect(_ engagement: EmbeddedCBOR<DeviceEngagement>) {
    let security = engagement.value.security
    _ = try? security.eDeviceKeyBytes.value.publicKey()
    _ = try? BLEIdent.compute(eDeviceKeyBytes: security.eDeviceKeyBytes)
    _ = engagement.value.encoded()
}
