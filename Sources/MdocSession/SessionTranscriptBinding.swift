import MdocCBOR
import MdocModel

/// The SessionTranscript a session is bound to, held as the exact bytes both sides agreed on
/// (ISO/IEC 18013-5 9.1.5.1).
///
/// Session keys hash SessionTranscriptBytes (`#6.24(bstr .cbor SessionTranscript)`), while
/// DeviceAuthentication and ReaderAuthentication embed the SessionTranscript item itself. Both are
/// built here from the transcript's encoding as received (docs/architecture.md rule 1): the structures that
/// embed it are written around those bytes, never from a re-encoded value.
public struct SessionTranscriptBinding: Sendable {
    /// The decoded transcript.
    public let transcript: SessionTranscript
    /// The encoding of the SessionTranscript array.
    public let itemBytes: [UInt8]
    /// The encoding of SessionTranscriptBytes, the HKDF salt input (9.1.1.5).
    public let taggedBytes: [UInt8]

    /// Reads a received SessionTranscriptBytes (tag 24) or bare SessionTranscript.
    public init(encoded bytes: [UInt8]) throws(CBORError) {
        let item = try CBOR.decode(bytes)
        if case .tagged(CBOR.Tag.encodedCBOR, _) = item {
            let embedded = try EmbeddedCBOR<SessionTranscript>(cbor: item, at: .root)
            self.transcript = embedded.value
            self.itemBytes = Array(embedded.bytes)
            self.taggedBytes = bytes
        } else {
            self.transcript = try SessionTranscript(cbor: item, at: .root)
            self.itemBytes = bytes
            self.taggedBytes = CBOR.encodedCBOR(bytes).encoded()
        }
    }

    /// Binds a transcript this side built (from the exact DeviceEngagementBytes and
    /// EReaderKeyBytes it exchanged).
    public init(_ transcript: SessionTranscript) {
        self.transcript = transcript
        self.itemBytes = transcript.cbor.encoded()
        self.taggedBytes = CBOR.encodedCBOR(itemBytes).encoded()
    }

    /// DeviceAuthenticationBytes (9.1.3.4):
    /// `#6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes])`,
    /// with the transcript and DeviceNameSpacesBytes spliced in as received.
    public func deviceAuthenticationBytes(docType: String, deviceNameSpacesBytes: EmbeddedCBOR<DeviceNameSpaces>) -> [UInt8] {
        Self.embeddedArray([
            CBOR.textString(DeviceAuthentication.context).encoded(),
            itemBytes,
            CBOR.textString(docType).encoded(),
            deviceNameSpacesBytes.cbor.encoded(),
        ])
    }

    /// ReaderAuthenticationBytes (9.1.4):
    /// `#6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes])`, with the
    /// transcript and ItemsRequestBytes spliced in as received.
    public func readerAuthenticationBytes(itemsRequestBytes: EmbeddedCBOR<ItemsRequest>) -> [UInt8] {
        Self.embeddedArray([
            CBOR.textString(ReaderAuthentication.context).encoded(),
            itemBytes,
            itemsRequestBytes.cbor.encoded(),
        ])
    }

    /// `#6.24(bstr .cbor [elements...])` for already-encoded elements; the array head is that of a
    /// definite-length array of fewer than 24 elements (RFC 8949 3.1, major type 4).
    private static func embeddedArray(_ elements: [[UInt8]]) -> [UInt8] {
        var inner: [UInt8] = [0x80 | UInt8(elements.count)]
        inner.reserveCapacity(1 + elements.reduce(0) { $0 + $1.count })
        for element in elements {
            inner += element
        }
        return CBOR.encodedCBOR(inner).encoded()
    }
}
