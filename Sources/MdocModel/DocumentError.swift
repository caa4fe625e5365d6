import MdocCBOR

/// `DocumentError = {+ DocType => ErrorCode}` (ISO/IEC 18013-5 8.3.2.1.2.2): documents that were
/// requested but not returned, and why.
public struct DocumentError: CBORRepresentable, Hashable {
    /// Doc type → error code, in received order.
    public var errors: OrderedMap<String, ErrorCode>

    /// Builds the structure from its parts.
    public init(errors: OrderedMap<String, ErrorCode>) {
        self.errors = errors
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        errors = try OrderedMap(textKeyed: cbor, at: path) { (code, docTypePath) throws(CBORError) in
            ErrorCode(rawValue: try code.int(at: docTypePath))
        }
    }

    public var cbor: CBOR {
        errors.cbor { CBOR($0.rawValue) }
    }
}
