import MdocCBOR
import MdocCOSE

/// `SessionEstablishment` (ISO/IEC 18013-5 9.1.1.4): the reader's first message, carrying its
/// ephemeral key and the encrypted DeviceRequest.
///
/// ```
/// SessionEstablishment = { "eReaderKey": EReaderKeyBytes, "data": bstr }
/// ```
/// EReaderKeyBytes keeps the received bytes, which the SessionTranscript must use unchanged.
public struct SessionEstablishment: CBORRepresentable {
    /// EReaderKeyBytes: the reader's ephemeral public key as a COSE_Key, with its exact bytes.
    public var eReaderKey: EmbeddedCBOR<COSEKey>
    /// The encrypted DeviceRequest (ciphertext followed by the GCM tag).
    public var data: [UInt8]
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(eReaderKey: EmbeddedCBOR<COSEKey>, data: [UInt8], additionalEntries: CBORMap = CBORMap()) {
        self.eReaderKey = eReaderKey
        self.data = data
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        eReaderKey = try EmbeddedCBOR(cbor: map.required("eReaderKey", at: path), at: path.appending(key: "eReaderKey"))
        data = try map.required("data", at: path).bytes(at: path.appending(key: "data"))
        additionalEntries = map.entries(excludingText: ["eReaderKey", "data"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("eReaderKey", eReaderKey.cbor)
        map.append("data", .byteString(data))
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
