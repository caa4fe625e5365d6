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
    /// Name space → digest ID → digest, in received order.
    public var valueDigests: OrderedMap<String, OrderedMap<UInt64, [UInt8]>>
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
        valueDigests: OrderedMap<String, OrderedMap<UInt64, [UInt8]>>,
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
                try digest.bytes(at: digestPath())
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
        map.append("valueDigests", valueDigests.cbor { digests in digests.cbor { CBOR.byteString($0) } })
        map.append("deviceKeyInfo", deviceKeyInfo.cbor)
        map.append("docType", .textString(docType))
        map.append("validityInfo", validityInfo.cbor)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
