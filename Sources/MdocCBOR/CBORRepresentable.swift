/// A structure with a CBOR form: how every ISO/IEC 18013-5 and COSE structure in this toolkit
/// decodes from and encodes to ``CBOR``, after swift-asn1's `DERParseable`/`DERSerializable` pair.
///
/// `init(cbor:at:)` interprets an already-decoded item and reports failures with the path it was
/// given; `cbor` builds the item the structure encodes to, with map entries in the order the
/// standard's CDDL declares them.
public protocol CBORRepresentable: Sendable {
    /// Interprets `cbor`, found at `path` inside the message being read.
    init(cbor: CBOR, at path: CBORPath) throws(CBORError)

    /// The item this structure encodes to.
    var cbor: CBOR { get }

    /// Decodes `encoded` (exactly one data item, RFC 8949 section 3) within `limits` and
    /// interprets it as this structure, with paths from the top level. The default decodes the
    /// item and calls ``init(cbor:at:)``; a structure may read its usual form straight from the
    /// bytes instead, to the same value or error.
    init(encoded: CBORBytes, limits: CBORLimits) throws(CBORError)
}
