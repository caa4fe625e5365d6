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
    /// verification checks that, decoding does not. A decoded item's salt is a view of the
    /// message it came in (`CBORBytes`), which it keeps alive: a response holds one per data
    /// element, and copying them out would cost more memory than the salts themselves.
    public var random: CBORBytes

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
    public init(digestID: UInt64, random: CBORBytes, elementIdentifier: String, elementValue: CBOR, additionalEntries: CBORMap = CBORMap()) {
        self.digestID = digestID
        self.random = random
        self.elementIdentifier = elementIdentifier
        self.elementValue = elementValue
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        // A response holds one of these per element: the entries are read in one pass, then
        // checked in the order of the CDDL (a missing key is reported by `required`).
        var positions: (digestID: Int?, random: Int?, elementIdentifier: Int?, elementValue: Int?)
        var modelled = 0
        for (position, entry) in map.entries.enumerated() {
            guard case .textString(let key) = entry.key else { continue }
            switch key {
            case "digestID" where positions.digestID == nil: positions.digestID = position
            case "random" where positions.random == nil: positions.random = position
            case "elementIdentifier" where positions.elementIdentifier == nil: positions.elementIdentifier = position
            case "elementValue" where positions.elementValue == nil: positions.elementValue = position
            default: continue
            }
            modelled += 1
        }
        func field(_ position: Int?, _ key: String) throws(CBORError) -> CBOR {
            if let position { return map.entries[position].value }
            return try map.required(key, at: path)
        }
        digestID = try field(positions.digestID, "digestID").uint(at: path.appending(key: "digestID"))
        random = try field(positions.random, "random").byteString(at: path.appending(key: "random"))
        elementIdentifier = try field(positions.elementIdentifier, "elementIdentifier").text(at: path.appending(key: "elementIdentifier"))
        elementValue = try field(positions.elementValue, "elementValue")
        additionalEntries = modelled == map.count
            ? CBORMap() : map.entries(excludingText: ["digestID", "random", "elementIdentifier", "elementValue"])
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

extension IssuerSignedItem {
    /// The keys of an IssuerSignedItem in the order of the CDDL, as UTF-8.
    private static let keys: CBORTextKeys = ["digestID", "random", "elementIdentifier", "elementValue"]

    /// Reads the content of an IssuerSignedItemBytes straight from its bytes, without decoding
    /// them into a ``CBOR`` tree first: a response holds one per data element. Only the form every
    /// issuer writes is read here, a map of exactly the four keys of the CDDL, in any order, with
    /// values of their types; `nil` for anything else, which ``init(cbor:at:)`` over the decoded
    /// item then accepts or rejects. The item read is the one that path gives.
    init?(reading bytes: CBORBytes) {
        guard let item = CBORHeadReader.read(bytes, Self.read) else { return nil }
        self = item
    }

    /// The item ``init(reading:)`` reads, from a reader at the start of its bytes.
    static func read(_ reader: inout CBORHeadReader) -> IssuerSignedItem? {
        var digestID: UInt64?
        var random: CBORBytes?
        var elementIdentifier: String?
        var elementValue: CBOR?
        // A value of another type than its key's ends the reading there.
        let read = reader.readMap(keyedBy: Self.keys, entryCount: Self.keys.count) { key, reader in
            switch key {
            case 0:
                digestID = reader.readUnsignedInt()
                return digestID != nil
            case 1:
                random = reader.readByteString()
                return random != nil
            case 2:
                elementIdentifier = reader.readText()
                return elementIdentifier != nil
            default:
                elementValue = reader.readItem(depth: 1)
                return elementValue != nil
            }
        }
        guard read, reader.isAtEnd, let digestID, let random, let elementIdentifier, let elementValue else { return nil }
        return IssuerSignedItem(digestID: digestID, random: random, elementIdentifier: elementIdentifier, elementValue: elementValue)
    }
}
