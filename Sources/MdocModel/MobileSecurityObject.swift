import MdocCBOR

/// `MobileSecurityObject` (ISO/IEC 18013-5 9.1.2.4): what the issuer signs: the digest of every
/// data element, the device key and the validity period.
///
/// ```
/// MobileSecurityObject = {
///   "version": tstr,
///   "digestAlgorithm": tstr,          ; "SHA-256", "SHA-384" or "SHA-512"
///   "valueDigests": ValueDigests,     ; {+ NameSpace => {+ DigestID => Digest}}
///   "deviceKeyInfo": DeviceKeyInfo,
///   "docType": tstr,
///   "validityInfo": ValidityInfo
/// }
/// ```
/// A digest ID that appears twice in a name space is a decoding error: it would let one item
/// match two digests. Keys of later editions (such as `status`) are kept in ``additionalEntries``.
public struct MobileSecurityObject: CBORRepresentable {
    /// The version, "1.0" in 18013-5:2021.
    public var version: String
    /// The digest algorithm name as received.
    public var digestAlgorithm: String
    /// Name space → digest ID → digest, in received order. The digests of a decoded MSO are
    /// views of the message it came in (`CBORBytes`), which they keep alive: an MSO holds one
    /// per data element, and copying them out would cost more memory than the digests themselves.
    public var valueDigests: OrderedMap<String, OrderedMap<UInt64, CBORBytes>>
    /// The static device key and its authorizations.
    public var deviceKeyInfo: DeviceKeyInfo
    /// The document type, such as ``DocType/mDL``.
    public var docType: String
    /// When the MSO was signed and its validity period.
    public var validityInfo: ValidityInfo
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        version: String = "1.0",
        digestAlgorithm: String,
        valueDigests: OrderedMap<String, OrderedMap<UInt64, CBORBytes>>,
        deviceKeyInfo: DeviceKeyInfo,
        docType: String,
        validityInfo: ValidityInfo,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.version = version
        self.digestAlgorithm = digestAlgorithm
        self.valueDigests = valueDigests
        self.deviceKeyInfo = deviceKeyInfo
        self.docType = docType
        self.validityInfo = validityInfo
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        version = try map.required("version", at: path).text(at: path.appending(key: "version"))
        digestAlgorithm = try map.required("digestAlgorithm", at: path).text(at: path.appending(key: "digestAlgorithm"))
        valueDigests = try OrderedMap(textKeyed: map.required("valueDigests", at: path), at: path.appending(key: "valueDigests")) {
            (digests, nameSpacePath) throws(CBORError) in
            try OrderedMap(uintKeyed: digests, at: nameSpacePath) { (digest, digestPath) throws(CBORError) in
                try digest.byteString(at: digestPath())
            }
        }
        deviceKeyInfo = try DeviceKeyInfo(cbor: map.required("deviceKeyInfo", at: path), at: path.appending(key: "deviceKeyInfo"))
        docType = try map.required("docType", at: path).text(at: path.appending(key: "docType"))
        validityInfo = try ValidityInfo(cbor: map.required("validityInfo", at: path), at: path.appending(key: "validityInfo"))
        additionalEntries = map.entries(excludingText: ["version", "digestAlgorithm", "valueDigests", "deviceKeyInfo", "docType", "validityInfo"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("version", .textString(version))
        map.append("digestAlgorithm", .textString(digestAlgorithm))
        map.append("valueDigests", valueDigests.cbor { digests in digests.cbor { .byteString($0) } })
        map.append("deviceKeyInfo", deviceKeyInfo.cbor)
        map.append("docType", .textString(docType))
        map.append("validityInfo", validityInfo.cbor)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}

extension MobileSecurityObject {
    /// The keys of a MobileSecurityObject in the order of the CDDL, as UTF-8.
    private static let keys: CBORTextKeys = ["version", "digestAlgorithm", "valueDigests", "deviceKeyInfo", "docType", "validityInfo"]

    /// Reads the content of MobileSecurityObjectBytes straight from its bytes, without decoding
    /// the value digests, one per data element, into a ``CBOR`` tree first. Only the form of
    /// 18013-5:2021 is read here, a map of exactly the six keys of the CDDL, in any order, with
    /// value digests keyed by name space and digest ID, each once; `nil` for anything else (keys of
    /// later editions included), which ``init(cbor:at:)`` over the decoded item then accepts or
    /// rejects. The MSO read is the one that path gives.
    init?(reading bytes: CBORBytes) {
        guard let mso = CBORHeadReader.read(bytes, Self.read) else { return nil }
        self = mso
    }

    /// The MSO ``init(reading:)`` reads.
    private static func read(_ reader: inout CBORHeadReader) -> MobileSecurityObject? {
        var version: String?
        var digestAlgorithm: String?
        var valueDigests: OrderedMap<String, OrderedMap<UInt64, CBORBytes>>?
        var deviceKeyInfo: DeviceKeyInfo?
        var docType: String?
        var validityInfo: ValidityInfo?
        // A value of another type than its key's ends the reading there.
        let read = reader.readMap(keyedBy: Self.keys, entryCount: Self.keys.count) { key, reader in
            switch key {
            case 0:
                version = reader.readText()
                return version != nil
            case 1:
                digestAlgorithm = reader.readText()
                return digestAlgorithm != nil
            case 2:
                valueDigests = readValueDigests(&reader)
                return valueDigests != nil
            case 3:
                deviceKeyInfo = DeviceKeyInfo.read(&reader, depth: 1)
                return deviceKeyInfo != nil
            case 4:
                docType = reader.readText()
                return docType != nil
            default:
                validityInfo = ValidityInfo.read(&reader, depth: 1)
                return validityInfo != nil
            }
        }
        guard read, reader.isAtEnd, let version, let digestAlgorithm, let valueDigests, let deviceKeyInfo, let docType, let validityInfo else {
            return nil
        }
        return MobileSecurityObject(
            version: version, digestAlgorithm: digestAlgorithm, valueDigests: valueDigests, deviceKeyInfo: deviceKeyInfo,
            docType: docType, validityInfo: validityInfo)
    }

    /// `ValueDigests = {+ NameSpace => {+ DigestID => Digest}}` (9.1.2.4), each name space and
    /// each digest ID of a name space once.
    private static func readValueDigests(_ reader: inout CBORHeadReader) -> OrderedMap<String, OrderedMap<UInt64, CBORBytes>>? {
        guard let nameSpaceCount = reader.readMapCount() else { return nil }
        var valueDigests = OrderedMap<String, OrderedMap<UInt64, CBORBytes>>()
        for _ in 0..<nameSpaceCount {
            guard let nameSpace = reader.readText(), valueDigests[nameSpace] == nil, let count = reader.readMapCount() else { return nil }
            var digests = OrderedMap<UInt64, CBORBytes>()
            // Each entry is at least a digest ID and a byte string head.
            digests.reserveCapacity(reader.reservation(count, minimumByteCount: 2))
            for _ in 0..<count {
                guard let digestID = reader.readUnsignedInt(), let digest = reader.readByteString(),
                      digests.appendIfNew(key: digestID, value: digest)
                else { return nil }
            }
            valueDigests[nameSpace] = digests
        }
        return valueDigests
    }
}
