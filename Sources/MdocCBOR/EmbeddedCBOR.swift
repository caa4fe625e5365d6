/// An embedded data item, `#6.24(bstr .cbor Value)` (RFC 8949 section 3.4.5.1; ISO/IEC 18013-5
/// section 8.1 and the `...Bytes` structures of 8.3 and 9.1).
///
/// ``bytes`` are the exact content of the byte string as received, or as encoded when the value
/// was built here; ``cbor`` writes them back unchanged. ISO/IEC 18013-5 hashes, signs and MACs
/// these bytes (IssuerSignedItemBytes, MobileSecurityObjectBytes, DeviceEngagementBytes,
/// EReaderKeyBytes, ItemsRequestBytes, DeviceNameSpacesBytes, SessionTranscriptBytes), so they are
/// never re-encoded from ``value``.
public struct EmbeddedCBOR<Value: CBORRepresentable>: CBORRepresentable {
    /// The content of the tag-24 byte string: one encoded data item.
    public let bytes: [UInt8]
    /// The structure those bytes encode.
    public let value: Value

    /// Embeds `value`, encoding it with ``CBOR/encoded()``.
    public init(_ value: Value) {
        self.value = value
        self.bytes = value.cbor.encoded()
    }

    /// Interprets `bytes`, the content of a tag-24 byte string, and keeps them as they are.
    public init(bytes: [UInt8], limits: CBORLimits = .default) throws(CBORError) {
        self.bytes = bytes
        self.value = try Value(cbor: CBOR.decode(bytes, limits: limits), at: .root)
    }

    /// Reads `#6.24(bstr)` found at `path` and interprets its content; errors inside the content
    /// are located under `path` (as `path<<>>...`).
    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let bytes = try cbor.embeddedBytes(at: path)
        let embeddedPath = path.appending(.embedded)
        let item: CBOR
        do {
            item = try CBOR.decode(bytes)
        } catch {
            throw error.prefixed(by: embeddedPath)
        }
        self.bytes = bytes
        self.value = try Value(cbor: item, at: embeddedPath)
    }

    /// `#6.24(bstr)` holding ``bytes``.
    public var cbor: CBOR {
        .encodedCBOR(bytes)
    }
}

extension EmbeddedCBOR: Equatable where Value: Equatable {}
extension EmbeddedCBOR: Hashable where Value: Hashable {}
