import MdocModel

/// What a reader asks of one document: the content of an ItemsRequest (ISO/IEC 18013-5
/// 8.3.2.1.2.1) before it is encoded and, with reader authentication, signed.
public struct DocRequestSpec: Sendable, Hashable {
    /// The document type, such as `DocType.mDL`.
    public var docType: String
    /// Name space → data element identifier → IntentToRetain, in request order.
    public var nameSpaces: OrderedMap<String, OrderedMap<String, Bool>>

    /// A request for `nameSpaces` of `docType`.
    public init(docType: String, nameSpaces: OrderedMap<String, OrderedMap<String, Bool>>) {
        self.docType = docType
        self.nameSpaces = nameSpaces
    }

    /// The ItemsRequest this spec encodes to.
    public var itemsRequest: ItemsRequest {
        ItemsRequest(docType: docType, nameSpaces: nameSpaces)
    }

    /// The reason this spec cannot become an ItemsRequest, or `nil`: the CDDL requires at least
    /// one name space and at least one element in each (`{+ NameSpace => {+ ...}}`).
    var problem: String? {
        if nameSpaces.isEmpty {
            return "the request for \(docType) names no name space"
        }
        if let empty = nameSpaces.first(where: { $0.value.isEmpty }) {
            return "the request for \(docType) names no element in \(empty.key)"
        }
        return nil
    }
}
