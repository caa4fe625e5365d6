import MdocCBOR

/// `IssuerSignedItem` (ISO/IEC 18013-5 8.3.2.1.2.2): one data element with the salt and digest
/// ID that bind it to the MSO.
///
/// ```
/// IssuerSignedItem = {
///   "digestID": uint,
///   "random": bstr,
///   "elementIdentifier": DataElementIdentifier,
///   "elementValue": DataElementValue
/// }
/// ```
/// The MSO digest is over the received IssuerSignedItemBytes (an `EmbeddedCBOR`), never a
/// re-encoding of this value. ``elementValue`` is kept as CBOR.
public struct IssuerSignedItem: CBORRepresentable, Hashable {
    /// The key of this item's digest in the MSO valueDigests.
    public var digestID: UInt64
    /// The random salt. 9.1.2.5 asks for at least ``minimumRandomByteCount`` bytes;
    /// verification checks that, decoding does not.
    public var random: [UInt8]

    /// The shortest `random` 9.1.2.5 allows: 16 bytes, so a digest cannot be inverted by guessing
    /// the element value.
    public static let minimumRandomByteCount = 16
    /// The data element identifier, such as `family_name`.
    public var elementIdentifier: String
    /// The data element value, as received.
    public var elementValue: CBOR
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(digestID: UInt64, random: [UInt8], elementIdentifier: String, elementValue: CBOR, additionalEntries: CBORMap = CBORMap()) {
        self.digestID = digestID
        self.random = random
        self.elementIdentifier = elementIdentifier
        self.elementValue = elementValue
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        digestID = try map.required("digestID", at: path).uint(at: path.appending(key: "digestID"))
        random = try map.required("random", at: path).bytes(at: path.appending(key: "random"))
        elementIdentifier = try map.required("elementIdentifier", at: path).text(at: path.appending(key: "elementIdentifier"))
        elementValue = try map.required("elementValue", at: path)
        additionalEntries = map.entries(excludingText: ["digestID", "random", "elementIdentifier", "elementValue"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("digestID", .unsignedInt(digestID))
        map.append("random", .byteString(random))
        map.append("elementIdentifier", .textString(elementIdentifier))
        map.append("elementValue", elementValue)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
