import MdocCBOR

/// A data element that passed verification: issuer data authentication vouches for its value
/// and its document passed mdoc authentication (ISO/IEC 18013-5 9.1.2, 9.1.3, 9.3.1). Only a
/// ``VerifiedDocument`` holds one.
public struct VerifiedElement: Sendable, Hashable {
    /// The name space, as the mdoc sent it.
    public let nameSpace: UntrustedString
    /// The data element identifier, as the mdoc sent it.
    public let identifier: UntrustedString
    /// The element value as received; text inside it is the issuer's.
    public let value: CBOR
    /// Whether the issuer signed the element (IssuerSigned) or the device did (DeviceSigned,
    /// authorised by the MSO KeyAuthorizations).
    public let source: DisclosedElement.Source

    init(_ element: DisclosedElement) {
        nameSpace = UntrustedString(element.nameSpace)
        identifier = UntrustedString(element.identifier)
        value = element.value
        source = element.source
    }
}
