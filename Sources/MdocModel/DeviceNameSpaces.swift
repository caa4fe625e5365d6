import MdocCBOR

/// `DeviceNameSpaces = {* NameSpace => DeviceSignedItems}`, with `DeviceSignedItems =
/// {+ DataElementIdentifier => DataElementValue}` (ISO/IEC 18013-5 8.3.2.1.2.2): data elements
/// the mdoc itself signs or MACs. Annex D's is empty.
public struct DeviceNameSpaces: CBORRepresentable, Hashable {
    /// Name space → data element identifier → value, in received order.
    public var nameSpaces: OrderedMap<String, OrderedMap<String, CBOR>>

    /// Builds the structure from its parts.
    public init(nameSpaces: OrderedMap<String, OrderedMap<String, CBOR>> = OrderedMap()) {
        self.nameSpaces = nameSpaces
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        nameSpaces = try OrderedMap(textKeyed: cbor, at: path) { (items, nameSpacePath) throws(CBORError) in
            try OrderedMap(textKeyed: items, at: nameSpacePath) { (value, _) throws(CBORError) in value }
        }
    }

    public var cbor: CBOR {
        nameSpaces.cbor { items in items.cbor { $0 } }
    }
}
