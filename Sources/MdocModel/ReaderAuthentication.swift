import MdocCBOR

/// `ReaderAuthentication = ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes]`
/// (ISO/IEC 18013-5 9.1.4): the detached payload of a DocRequest's readerAuth signature, as
/// `ReaderAuthenticationBytes = #6.24(bstr .cbor ReaderAuthentication)`.
///
/// Built from the exact ItemsRequestBytes the reader sent and the SessionTranscript both sides
/// hold, so the verifier never re-encodes the request.
public struct ReaderAuthentication: CBORRepresentable {
    /// The context string, the array's first element.
    public static let context = "ReaderAuthentication"

    /// The SessionTranscript of the session (9.1.5.1).
    public var sessionTranscript: SessionTranscript
    /// ItemsRequestBytes, as received in the DocRequest.
    public var itemsRequestBytes: EmbeddedCBOR<ItemsRequest>

    /// Builds the structure from its parts.
    public init(sessionTranscript: SessionTranscript, itemsRequestBytes: EmbeddedCBOR<ItemsRequest>) {
        self.sessionTranscript = sessionTranscript
        self.itemsRequestBytes = itemsRequestBytes
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let array = try cbor.array(at: path)
        guard array.count == 3 else {
            throw CBORError(.invalidValue, "ReaderAuthentication must have 3 elements, found \(array.count)", path: path)
        }
        let context = try array[0].text(at: path.appending(index: 0))
        guard context == Self.context else {
            throw CBORError(.invalidValue, "expected \"\(Self.context)\", found \"\(context)\"", path: path.appending(index: 0))
        }
        sessionTranscript = try SessionTranscript(cbor: array[1], at: path.appending(index: 1))
        itemsRequestBytes = try EmbeddedCBOR(cbor: array[2], at: path.appending(index: 2))
    }

    public var cbor: CBOR {
        .array([.textString(Self.context), sessionTranscript.cbor, itemsRequestBytes.cbor])
    }

    /// ReaderAuthenticationBytes: the detached COSE_Sign1 payload is `bytes.encoded()`.
    public var bytes: EmbeddedCBOR<ReaderAuthentication> {
        EmbeddedCBOR(self)
    }
}
