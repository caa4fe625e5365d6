import FuzzSupport
import MdocCBOR
import MdocInspection

/// The input as CBOR diagnostic notation (RFC 8949 section 8) and as the lossless JSON of
/// `mdoc inspect --json` (docs/inspect-json.md), read back into CBOR (docs/crafted-sessions.md).
/// What either reads must come back the same when written out again: notation that encodes to a
/// well-formed item gives the item's preferred encoding when the item is printed and read again,
/// and an item read from JSON gives the same bytes through its JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBORText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    if let encoded = try? CBORDiagnosticParser.encode(bytes), let item = try? CBOR.decode(encoded) {
        let again = try? CBORDiagnosticParser.encode(item.diagnosticNotation())
        precondition(again == item.encoded(), "the notation of a decoded item reads back into other bytes")
    }
    if let item = try? LosslessJSONParser.decode(bytes) {
        let again = try? LosslessJSONParser.decode(item.losslessJSON.serialized())
        precondition(again?.encoded() == item.encoded(), "the JSON of an item read from JSON reads back into other bytes")
    }
    return 0
}
