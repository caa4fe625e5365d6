import MdocCBOR

/// `DeviceRequest = {"version": tstr, "docRequests": [+ DocRequest]}` (ISO/IEC 18013-5
/// 8.3.2.1.2.1): what a reader asks for, one DocRequest per document type.
///
/// Keys of later editions (such as `deviceRequestInfo` and `readerAuthAll`) are kept in
/// ``additionalEntries``.
public struct DeviceRequest: CBORRepresentable {
    /// The version, "1.0" in 18013-5:2021.
    public var version: String
    /// The requests, at least one.
    public var docRequests: [DocRequest]
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(version: String = "1.0", docRequests: [DocRequest], additionalEntries: CBORMap = CBORMap()) {
        self.version = version
        self.docRequests = docRequests
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        version = try map.required("version", at: path).text(at: path.appending(key: "version"))
        docRequests = try map.required("docRequests", at: path).nonEmptyArray(at: path.appending(key: "docRequests")) {
            (item, itemPath) throws(CBORError) in try DocRequest(cbor: item, at: itemPath)
        }
        additionalEntries = map.entries(excludingText: ["version", "docRequests"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("version", .textString(version))
        map.append("docRequests", .array(docRequests.map(\.cbor)))
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
