import MdocCBOR

/// `KeyAuthorizations` (ISO/IEC 18013-5 9.1.2.4): the name spaces and data elements the device
/// key may sign or MAC in DeviceSigned.
///
/// ```
/// KeyAuthorizations = {
///   ? "nameSpaces": [+ NameSpace],
///   ? "dataElements": {+ NameSpace => [+ DataElementIdentifier]}
/// }
/// ```
public struct KeyAuthorizations: CBORRepresentable, Hashable {
    /// Name spaces whose every element the device key may authenticate.
    public var nameSpaces: [String]?
    /// Name space → the data elements the device key may authenticate.
    public var dataElements: OrderedMap<String, [String]>?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(nameSpaces: [String]? = nil, dataElements: OrderedMap<String, [String]>? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.nameSpaces = nameSpaces
        self.dataElements = dataElements
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        nameSpaces = try map[text: "nameSpaces"].map { (value) throws(CBORError) in
            try value.array(at: path.appending(key: "nameSpaces")) { (item, itemPath) throws(CBORError) in try item.text(at: itemPath) }
        }
        dataElements = try map[text: "dataElements"].map { (value) throws(CBORError) in
            try OrderedMap(textKeyed: value, at: path.appending(key: "dataElements")) { (elements, nameSpacePath) throws(CBORError) in
                try elements.array(at: nameSpacePath) { (item, itemPath) throws(CBORError) in try item.text(at: itemPath) }
            }
        }
        additionalEntries = map.entries(excludingText: ["nameSpaces", "dataElements"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        if let nameSpaces { map.append("nameSpaces", .array(nameSpaces.map(CBOR.textString))) }
        if let dataElements {
            map.append("dataElements", dataElements.cbor { elements in .array(elements.map(CBOR.textString)) })
        }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
