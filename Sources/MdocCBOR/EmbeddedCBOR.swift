/// An embedded data item, `#6.24(bstr .cbor Value)` (RFC 8949 section 3.4.5.1; ISO/IEC 18013-5
/// section 8.1 and the `...Bytes` structures of 8.3 and 9.1).
///
/// ``bytes`` are the exact content of the byte string as received, or as encoded when the value
/// was built here; ``cbor`` writes them back unchanged. ISO/IEC 18013-5 hashes, signs and MACs
/// these bytes (IssuerSignedItemBytes, MobileSecurityObjectBytes, DeviceEngagementBytes,
/// EReaderKeyBytes, ItemsRequestBytes, DeviceNameSpacesBytes, SessionTranscriptBytes), so they are
/// never re-encoded from ``value``. A received item's bytes are a view of the message it came in
/// (``CBORBytes``), and so are the byte strings of ``value``: decoding copies neither.
public struct EmbeddedCBOR<Value: CBORRepresentable>: CBORRepresentable {
    /// The content of the tag-24 byte string: one encoded data item.
    public let bytes: CBORBytes
    /// The structure those bytes encode.
    public let value: Value

    /// Embeds `value`, encoding it with ``CBOR/encoded()``.
    public init(_ value: Value) {
        self.value = value
        self.bytes = CBORBytes(value.cbor.encoded())
    }

    /// Interprets `bytes`, the content of a tag-24 byte string, and keeps them as they are.
    public init(bytes: [UInt8], limits: CBORLimits = .default) throws(CBORError) {
        try self.init(bytes: CBORBytes(bytes), limits: limits)
    }

    /// Interprets `bytes`, the content of a tag-24 byte string, and keeps them as they are.
    public init(bytes: CBORBytes, limits: CBORLimits = .default) throws(CBORError) {
        self.bytes = bytes
        self.value = try Value(cbor: CBOR.decode(bytes, limits: limits), at: .root)
    }

    /// Reads `#6.24(bstr)` found at `path` and interprets its content; errors inside the content
    /// are located under `path` (as `path<<>>...`).
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let bytes = try cbor.embeddedBytes(at: path)
        let item: CBOR
        do {
            item = try CBOR.decode(bytes)
        } catch {
            throw error.prefixed(by: path.appending(.embedded))
        }
        self.bytes = bytes
        self.value = try Value(cbor: item, at: path.appending(.embedded))
    }

    /// `value`, which the caller read from `bytes` (the content of a tag-24 byte string) as
    /// ``init(bytes:limits:)`` would have: for a structure that reads itself straight from its
    /// encoding (``CBORHeadReader``).
    @inlinable
    package init(bytes: CBORBytes, readValue value: Value) {
        self.bytes = bytes
        self.value = value
    }

    /// `#6.24(bstr)` holding ``bytes``.
    public var cbor: CBOR {
        .encodedCBOR(bytes)
    }

    /// The encoding of the whole embedded data item, `#6.24(bstr)`, with the tag and length
    /// heads of preferred serialization (RFC 8949 section 4.2.1, the only form ISO/IEC 18013-5
    /// 8.1 allows) around ``bytes``, as ``cbor`` encodes it. ISO/IEC 18013-5 digests
    /// IssuerSignedItemBytes in this form (9.1.2.5).
    ///
    /// For an item received in that form, which a conforming message always is, these are the
    /// received bytes themselves, a view of the message: nothing is copied or encoded. An item
    /// received with longer heads is encoded here, so its digest is not the one of the bytes
    /// that were sent.
    public var taggedBytes: CBORBytes {
        if let received = bytes.receivedEmbedding, received.count == Self.preferredHeadsCount(bytes.count) + bytes.count {
            // The decoder read a tag-24 head and a byte-string head of `bytes.count`; heads of
            // the shortest lengths have exactly one encoding.
            return received
        }
        return CBORBytes(cbor.encoded())
    }

    /// The length of `d8 18` and the shortest byte-string head for `count` bytes.
    private static func preferredHeadsCount(_ count: Int) -> Int {
        switch UInt64(count) {
        case 0..<24: return 2 + 1
        case 24...0xff: return 2 + 2
        case 0x100...0xffff: return 2 + 3
        case 0x1_0000...0xffff_ffff: return 2 + 5
        default: return 2 + 9
        }
    }
}

extension EmbeddedCBOR: Equatable where Value: Equatable {
    /// Equal when both hold the same bytes (and so the same value).
    public static func == (lhs: EmbeddedCBOR, rhs: EmbeddedCBOR) -> Bool {
        lhs.bytes == rhs.bytes && lhs.value == rhs.value
    }
}

extension EmbeddedCBOR: Hashable where Value: Hashable {}
