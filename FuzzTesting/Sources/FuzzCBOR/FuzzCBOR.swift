import FuzzSupport
import MdocCBOR

/// CBOR decoding with the default limits (RFC 8949; docs/architecture.md rule 4), then what the toolkit does
/// with a decoded value: diagnostic notation with embedded CBOR expanded, and re-encoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let value = try? CBOR.decode(bytes) {
        _ = value.diagnosticNotation(expandEmbedded: true, indent: true)
        _ = value.encoded()
    }
    return 0
}
