import MdocCBOR
import MdocModel
import MdocSession

/// The requests of the holder suite.
enum HolderRequests {
    /// A document type no issuer uses: the reverse-DNS name of example.org (RFC 2606).
    static let unknownDocType = "org.example.conformance.unknown.1"
    /// A name space no mDL holds.
    static let unknownNameSpace = "org.example.conformance.unknown"
    /// An element identifier the mDL name space does not define (18013-5 7.2.1, Table 5).
    static let unknownElement = "conformance_unknown_element"
    /// The elements a well-formed request asks for, without IntentToRetain.
    static let asked: OrderedMap<String, Bool> = ["family_name": false, "age_over_18": false]
    /// The same, as elements of the mDL name space.
    static let askedElements = asked.keys.map { HolderExpectation.Element(NameSpace.mDL, $0) }

    /// A request for `elements` of the mDL name space.
    static func mDL(_ elements: OrderedMap<String, Bool>) -> DocRequestSpec {
        DocRequestSpec(docType: DocType.mDL, nameSpaces: [NameSpace.mDL: elements])
    }

    /// The ItemsRequest of the well-formed request, encoded.
    static let itemsRequestBytes = mDL(asked).itemsRequest.encoded()
    /// ItemsRequestBytes as 8.3.2.1.2.1 has them: `#6.24(bstr .cbor ItemsRequest)`.
    static let taggedItemsRequest = CBOR.tagged(24, .byteString(CBORBytes(itemsRequestBytes)))
    /// The same bytes without tag 24.
    static let untaggedItemsRequest = CBOR.byteString(CBORBytes(itemsRequestBytes))
    /// The well-formed DeviceRequest, encoded.
    static let wellFormed = deviceRequest(version: .textString("1.0"), docRequests: [docRequest(itemsRequest: taggedItemsRequest)])

    /// A DocRequest `{"itemsRequest": itemsRequest}` without ReaderAuth.
    static func docRequest(itemsRequest: CBOR) -> CBOR {
        var map = CBORMap()
        map.append("itemsRequest", itemsRequest)
        return .map(map)
    }

    /// An encoded DeviceRequest map of `version` and, unless `nil`, `docRequests`.
    static func deviceRequest(version: CBOR, docRequests: [CBOR]?) -> [UInt8] {
        var map = CBORMap()
        map.append("version", version)
        if let docRequests {
            map.append("docRequests", .array(docRequests))
        }
        return CBOR.map(map).encoded()
    }
}
