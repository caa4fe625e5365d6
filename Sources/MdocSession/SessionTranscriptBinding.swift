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
        embeddedArray(count: 4, contentByteCount: docType.utf8.count + deviceNameSpacesBytes.bytes.count) { array in
            CBOR.textString(DeviceAuthentication.context).encode(into: &array)
            array += itemBytes
            CBOR.textString(docType).encode(into: &array)
            deviceNameSpacesBytes.cbor.encode(into: &array)
        }
    }

    /// ReaderAuthenticationBytes (9.1.4):
    /// `#6.24(bstr .cbor ["ReaderAuthentication", SessionTranscript, ItemsRequestBytes])`, with the
    /// transcript and ItemsRequestBytes spliced in as received.
    public func readerAuthenticationBytes(itemsRequestBytes: EmbeddedCBOR<ItemsRequest>) -> [UInt8] {
        embeddedArray(count: 3, contentByteCount: itemsRequestBytes.bytes.count) { array in
            CBOR.textString(ReaderAuthentication.context).encode(into: &array)
            array += itemBytes
            itemsRequestBytes.cbor.encode(into: &array)
        }
    }

    /// Room made in an embedded array, beyond the transcript and the contents of its other
    /// elements, for the heads and the context string, all short.
    private static let embeddedArrayOverhead = 64

    /// `#6.24(bstr .cbor [elements...])` of `count` elements, fewer than 24, which `writeElements`
    /// appends encoded to the array head (RFC 8949 section 3.1, major type 4); room is made at
    /// once for the transcript, `contentByteCount` bytes of the other elements' contents and
    /// their heads.
    private func embeddedArray(count: Int, contentByteCount: Int, _ writeElements: (inout [UInt8]) -> Void) -> [UInt8] {
        var array: [UInt8] = [0x80 | UInt8(count)]
        array.reserveCapacity(Self.embeddedArrayOverhead + itemBytes.count + contentByteCount)
        writeElements(&array)
        // The heads of tag 24 (major type 6, argument 24 in one byte) and of the byte string.
        var embedded: [UInt8] = [0xd8, 0x18]
        embedded.reserveCapacity(Self.embeddedArrayOverhead + array.count)
        CBOR.encodeByteStringHead(count: array.count, into: &embedded)
        embedded += array
        return embedded
    }
}
