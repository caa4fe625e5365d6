import MdocCBOR

/// `ItemsRequest` (ISO/IEC 18013-5 8.3.2.1.2.1): the data elements a reader asks for from one
/// document, with whether it intends to retain each.
///
/// ```
/// ItemsRequest = {
///   "docType": DocType,
///   "nameSpaces": NameSpaces,        ; {+ NameSpace => {+ DataElementIdentifier => IntentToRetain}}
///   ? "requestInfo": {* tstr => any}
/// }
/// ```
/// Name spaces and elements keep the order the reader wrote them in.
public struct ItemsRequest: CBORRepresentable, Hashable {
    /// The document type, such as ``DocType/mDL``.
    public var docType: String
    /// Name space → data element identifier → IntentToRetain.
    public var nameSpaces: OrderedMap<String, OrderedMap<String, Bool>>
    /// Additional information for the mdoc, as received.
    public var requestInfo: CBORMap?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        docType: String,
        nameSpaces: OrderedMap<String, OrderedMap<String, Bool>>,
        requestInfo: CBORMap? = nil,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.docType = docType
        self.nameSpaces = nameSpaces
        self.requestInfo = requestInfo
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        docType = try map.required("docType", at: path).text(at: path.appending(key: "docType"))
        nameSpaces = try OrderedMap(textKeyed: map.required("nameSpaces", at: path), at: path.appending(key: "nameSpaces")) {
            (elements, nameSpacePath) throws(CBORError) in
            try OrderedMap(textKeyed: elements, at: nameSpacePath) { (intent, elementPath) throws(CBORError) in
                try intent.bool(at: elementPath)
            }
        }
        requestInfo = try map[text: "requestInfo"].map { (value) throws(CBORError) in
            try value.map(at: path.appending(key: "requestInfo"))
        }
        additionalEntries = map.entries(excludingText: ["docType", "nameSpaces", "requestInfo"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("docType", .textString(docType))
        map.append("nameSpaces", nameSpaces.cbor { elements in elements.cbor { CBOR.boolean($0) } })
        if let requestInfo { map.append("requestInfo", .map(requestInfo)) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
