import MdocCBOR
import MdocCOSE

/// `DocRequest = {"itemsRequest": ItemsRequestBytes, ? "readerAuth": ReaderAuth}` (ISO/IEC
/// 18013-5 8.3.2.1.2.1).
///
/// ItemsRequestBytes keeps the received bytes: ReaderAuthentication (9.1.4) signs them.
/// `ReaderAuth` is a COSE_Sign1 with a detached payload.
public struct DocRequest: CBORRepresentable {
    /// ItemsRequestBytes, with the exact received bytes.
    public var itemsRequest: EmbeddedCBOR<ItemsRequest>
    /// The reader's signature over ReaderAuthenticationBytes, when the reader authenticates.
    public var readerAuth: COSESign1?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(itemsRequest: EmbeddedCBOR<ItemsRequest>, readerAuth: COSESign1? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.itemsRequest = itemsRequest
        self.readerAuth = readerAuth
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        itemsRequest = try EmbeddedCBOR(cbor: map.required("itemsRequest", at: path), at: path.appending(key: "itemsRequest"))
        readerAuth = try map[text: "readerAuth"].map { (value) throws(CBORError) in
            try COSESign1(cbor: value, at: path.appending(key: "readerAuth"))
        }
        additionalEntries = map.entries(excludingText: ["itemsRequest", "readerAuth"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("itemsRequest", itemsRequest.cbor)
        if let readerAuth { map.append("readerAuth", readerAuth.cbor) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
