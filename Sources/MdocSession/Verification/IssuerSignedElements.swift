import MdocCBOR
import MdocModel

/// The elements of one name space's returned IssuerSignedItems as a report gives them (9.3.1),
/// in received order, each built from its item when it is read.
struct IssuerSignedElements: ReportRun {
    /// The name space of the items.
    let nameSpace: String
    /// The items as the document holds them.
    let items: [EmbeddedCBOR<IssuerSignedItem>]
    /// Whether issuer data authentication vouches for each item, by position; an item past the
    /// end is not issuer-authenticated.
    let issuerAuthenticated: [Bool]
    /// Whether the document passed issuer data and device authentication: an element is
    /// verified when it is issuer-authenticated as well (9.1.3).
    let documentVerified: Bool

    var count: Int { items.count }

    subscript(offset: Int) -> DisclosedElement {
        let item = items[offset].value
        let authenticated = offset < issuerAuthenticated.count && issuerAuthenticated[offset]
        return DisclosedElement(
            nameSpace: nameSpace, identifier: item.elementIdentifier, value: item.elementValue, source: .issuerSigned,
            digestID: item.digestID, issuerAuthenticated: authenticated, verified: documentVerified && authenticated)
    }
}
