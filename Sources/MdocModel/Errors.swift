import MdocCBOR

/// `Errors = {+ NameSpace => ErrorItems}`, `ErrorItems = {+ DataElementIdentifier => ErrorCode}`
/// (ISO/IEC 18013-5 8.3.2.1.2.2): the data elements of a document that were not returned, and why.
public struct Errors: CBORRepresentable, Hashable {
    /// Name space → data element identifier → error code, in received order.
    public var nameSpaces: OrderedMap<String, OrderedMap<String, ErrorCode>>

    /// Builds the structure from its parts.
    public init(nameSpaces: OrderedMap<String, OrderedMap<String, ErrorCode>>) {
        self.nameSpaces = nameSpaces
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        nameSpaces = try OrderedMap(textKeyed: cbor, at: path) { (items, nameSpacePath) throws(CBORError) in
            try OrderedMap(textKeyed: items, at: nameSpacePath) { (code, elementPath) throws(CBORError) in
                ErrorCode(rawValue: try code.int(at: elementPath))
            }
        }
    }

    public var cbor: CBOR {
        nameSpaces.cbor { items in items.cbor { CBOR($0.rawValue) } }
    }
}
