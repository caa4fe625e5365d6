extension CBORRepresentable {
    /// Decodes `encoded` (exactly one data item, RFC 8949 section 3) within `limits` and
    /// interprets it as this structure, with paths from the top level.
    public init(encoded: [UInt8], limits: CBORLimits = .default) throws(CBORError) {
        try self.init(encoded: CBORBytes(encoded), limits: limits)
    }

    /// Decodes the bytes `encoded` views (exactly one data item) within `limits` and interprets
    /// them as this structure; its byte strings are views of the same storage.
    public init(encoded: CBORBytes, limits: CBORLimits = .default) throws(CBORError) {
        try self.init(cbor: CBOR.decode(encoded, limits: limits), at: .root)
    }

    /// The encoded bytes of ``CBORRepresentable/cbor`` (RFC 8949 section 4.2.1 preferred
    /// serialization, map entries in the structure's order).
    public func encoded() -> [UInt8] {
        cbor.encoded()
    }
}

/// A data item is its own CBOR form, so generic code such as `EmbeddedCBOR<CBOR>` can carry an
/// item that no structure describes (RFC 8949 section 2).
extension CBOR: CBORRepresentable {
    /// The item itself; nothing can fail.
    public init(cbor: CBOR, at path: CBORPath) {
        self = cbor
    }

    /// The item itself.
    public var cbor: CBOR { self }
}
