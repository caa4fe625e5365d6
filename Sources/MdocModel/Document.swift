import MdocCBOR

/// `Document` (ISO/IEC 18013-5 8.3.2.1.2.2): one returned document.
///
/// ```
/// Document = {
///   "docType": DocType,
///   "issuerSigned": IssuerSigned,
///   "deviceSigned": DeviceSigned,
///   ? "errors": Errors
/// }
/// ```
public struct Document: CBORRepresentable {
    /// The document type, such as ``DocType/mDL``.
    public var docType: String
    /// The issuer-signed data elements and the MSO.
    public var issuerSigned: IssuerSigned
    /// The device-signed data elements and device authentication.
    public var deviceSigned: DeviceSigned
    /// Requested data elements that were not returned.
    public var errors: Errors?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(docType: String, issuerSigned: IssuerSigned, deviceSigned: DeviceSigned, errors: Errors? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.docType = docType
        self.issuerSigned = issuerSigned
        self.deviceSigned = deviceSigned
        self.errors = errors
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        docType = try map.required("docType", at: path).text(at: path.appending(key: "docType"))
        issuerSigned = try IssuerSigned(cbor: map.required("issuerSigned", at: path), at: path.appending(key: "issuerSigned"))
        deviceSigned = try DeviceSigned(cbor: map.required("deviceSigned", at: path), at: path.appending(key: "deviceSigned"))
        errors = try map[text: "errors"].map { (value) throws(CBORError) in
            try Errors(cbor: value, at: path.appending(key: "errors"))
        }
        additionalEntries = map.entries(excludingText: ["docType", "issuerSigned", "deviceSigned", "errors"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("docType", .textString(docType))
        map.append("issuerSigned", issuerSigned.cbor)
        map.append("deviceSigned", deviceSigned.cbor)
        if let errors { map.append("errors", errors.cbor) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
