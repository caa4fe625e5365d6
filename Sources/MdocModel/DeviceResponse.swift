import MdocCBOR

/// `DeviceResponse` (ISO/IEC 18013-5 8.3.2.1.2.2): the mdoc's answer to a DeviceRequest.
///
/// ```
/// DeviceResponse = {
///   "version": tstr,
///   ? "documents": [+ Document],
///   ? "documentErrors": [+ DocumentError],
///   "status": uint
/// }
/// ```
/// A status code this toolkit does not name is kept (``Status`` holds any `uint`).
public struct DeviceResponse: CBORRepresentable {
    /// The version, "1.0" in 18013-5:2021.
    public var version: String
    /// The returned documents.
    public var documents: [Document]?
    /// Requested documents that were not returned.
    public var documentErrors: [DocumentError]?
    /// The status of the response (0 OK).
    public var status: Status
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        version: String = "1.0",
        documents: [Document]? = nil,
        documentErrors: [DocumentError]? = nil,
        status: Status = .ok,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.version = version
        self.documents = documents
        self.documentErrors = documentErrors
        self.status = status
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        version = try map.required("version", at: path).text(at: path.appending(key: "version"))
        documents = try map[text: "documents"].map { (value) throws(CBORError) in
            try value.array(at: path.appending(key: "documents")) { (item, itemPath) throws(CBORError) in
                try Document(cbor: item, at: itemPath)
            }
        }
        documentErrors = try map[text: "documentErrors"].map { (value) throws(CBORError) in
            try value.array(at: path.appending(key: "documentErrors")) { (item, itemPath) throws(CBORError) in
                try DocumentError(cbor: item, at: itemPath)
            }
        }
        status = Status(rawValue: try map.required("status", at: path).uint(at: path.appending(key: "status")))
        additionalEntries = map.entries(excludingText: ["version", "documents", "documentErrors", "status"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("version", .textString(version))
        if let documents { map.append("documents", .array(documents.map(\.cbor))) }
        if let documentErrors { map.append("documentErrors", .array(documentErrors.map(\.cbor))) }
        map.append("status", .unsignedInt(status.rawValue))
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
