import MdocCBOR
import MdocCOSE

/// `IssuerSigned = {? "nameSpaces": IssuerNameSpaces, "issuerAuth": IssuerAuth}` (ISO/IEC
/// 18013-5 8.3.2.1.2.2), with `IssuerNameSpaces = {+ NameSpace => [+ IssuerSignedItemBytes]}`.
///
/// Each IssuerSignedItemBytes keeps its received bytes for the digest check against the MSO.
/// `IssuerAuth` is a COSE_Sign1 whose payload is MobileSecurityObjectBytes.
public struct IssuerSigned: CBORRepresentable {
    /// Name space → the disclosed items, in received order.
    public var nameSpaces: OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>?
    /// The issuer's signature over MobileSecurityObjectBytes.
    public var issuerAuth: COSESign1
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        nameSpaces: OrderedMap<String, [EmbeddedCBOR<IssuerSignedItem>]>?,
        issuerAuth: COSESign1,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.nameSpaces = nameSpaces
        self.issuerAuth = issuerAuth
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        nameSpaces = try map[text: "nameSpaces"].map { (value) throws(CBORError) in
            try OrderedMap(textKeyed: value, at: path.appending(key: "nameSpaces")) { (items, nameSpacePath) throws(CBORError) in
                try Self.items(items, at: nameSpacePath)
            }
        }
        issuerAuth = try COSESign1(cbor: map.required("issuerAuth", at: path), at: path.appending(key: "issuerAuth"))
        additionalEntries = map.entries(excludingText: ["nameSpaces", "issuerAuth"])
    }

    /// The IssuerSignedItemBytes of one name space, `[+ IssuerSignedItemBytes]`. A response holds
    /// one per element: each is read straight from its bytes when it has the form
    /// ``IssuerSignedItem/init(reading:)`` reads, and decoded in full otherwise, which also gives
    /// the error, located under `path`, when it is not an IssuerSignedItemBytes.
    private static func items(_ items: CBOR, at path: CBORPath) throws(CBORError) -> [EmbeddedCBOR<IssuerSignedItem>] {
        let elements = try items.array(at: path)
        var result: [EmbeddedCBOR<IssuerSignedItem>] = []
        result.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            if case .tagged(CBOR.Tag.encodedCBOR, .byteString(let bytes)) = item, let value = IssuerSignedItem(reading: bytes) {
                result.append(EmbeddedCBOR(bytes: bytes, readValue: value))
            } else {
                result.append(try EmbeddedCBOR(cbor: item, at: path.appending(index: index)))
            }
        }
        return result
    }

    public var cbor: CBOR {
        var map = CBORMap()
        if let nameSpaces {
            map.append("nameSpaces", nameSpaces.cbor { items in .array(items.map(\.cbor)) })
        }
        map.append("issuerAuth", issuerAuth.cbor)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }

    /// MobileSecurityObjectBytes: the issuerAuth payload read as an MSO, keeping its bytes.
    /// Throws when the payload is detached or is not a MobileSecurityObjectBytes; error paths
    /// start at `path`, where this IssuerSigned sits in its message.
    public func mobileSecurityObjectBytes(at path: CBORPath = .root) throws(CBORError) -> EmbeddedCBOR<MobileSecurityObject> {
        guard let payload = issuerAuth.payload else {
            throw CBORError(
                .missingValue, "the issuerAuth payload is detached; it must hold MobileSecurityObjectBytes", path: Self.payloadPath(under: path))
        }
        let item: CBOR
        do throws(CBORError) {
            item = try CBOR.decode(payload)
        } catch {
            throw error.prefixed(by: Self.payloadPath(under: path))
        }
        // The MSO holds a digest per data element: read straight from its bytes when it has the
        // form MobileSecurityObject(reading:) reads, decoded in full otherwise.
        if case .tagged(CBOR.Tag.encodedCBOR, .byteString(let bytes)) = item, let mso = MobileSecurityObject(reading: bytes) {
            return EmbeddedCBOR(bytes: bytes, readValue: mso)
        }
        return try EmbeddedCBOR(cbor: item, at: Self.payloadPath(under: path))
    }

    /// Where the issuerAuth payload of an IssuerSigned at `path` sits: built only for an error.
    private static func payloadPath(under path: CBORPath) -> CBORPath {
        path.appending(key: "issuerAuth").appending(index: 2)
    }
}
