/// Decodes one CBOR data item (RFC 8949 section 3) from untrusted bytes, over libcbor's
/// streaming decoder, within ``CBORLimits``. The definite-length forms messages are made of are
/// read head by head first (`CBORHeadReader`), which gives the same item.
///
/// The whole input must be exactly one well-formed item (section 5.3.1): bytes after it are an
/// error. Indefinite-length strings, arrays and maps are accepted and joined into their definite
/// equivalents; maps keep their order and must not repeat a key (section 5.6). An embedded item
/// (tag 24) stays a byte string holding exactly the received bytes. Every failure is a
/// ``CBORError`` with the path of the failing item and its byte offset. The decoder never
/// allocates by a declared length: a length or count must be backed by the bytes that follow.
public struct CBORDecoder: Sendable {
    /// The bounds applied to every input.
    public var limits: CBORLimits

    /// 16 entries: up to this size a map is checked for duplicate keys (RFC 8949 section 5.6)
    /// by comparing each key with the keys before it, which is faster than hashing them for the
    /// few entries an ISO/IEC 18013-5 map holds. A larger map hashes its keys into a set, so the
    /// check stays linear in the size of a hostile map. Either way every duplicate is rejected.
    public static let linearDuplicateKeyScanLimit = 16

    /// A decoder applying `limits`.
    public init(limits: CBORLimits = .default) {
        self.limits = limits
    }

    /// Decodes `bytes`, which must hold exactly one data item. Byte strings in the result are
    /// views of `bytes` (``CBORBytes``), which share its storage.
    public func decode(_ bytes: [UInt8]) throws(CBORError) -> CBOR {
        try decode(CBORBytes(bytes))
    }

    /// Decodes `bytes`, which must hold exactly one data item (an embedded item's content, for
    /// example). Byte strings in the result are views of the array `bytes` are a view of, and
    /// error offsets count from the start of `bytes`.
    public func decode(_ bytes: CBORBytes) throws(CBORError) -> CBOR {
        guard bytes.count <= limits.maximumInputSize else {
            throw CBORError(.inputTooLarge, "input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize) bytes", offset: 0)
        }
        // The definite-length forms messages are made of are read head by head, which gives the
        // item this decoder gives; anything else, and every error, is decoded below.
        let read = CBORHeadReader.read(bytes, limits: limits) { reader -> CBOR? in
            guard let item = reader.readDefiniteItem(depth: 0), reader.isAtEnd else { return Optional.none }
            return item
        }
        if let read { return read }
        let reader = CBORStreamReader()
        let result = bytes.storage.withUnsafeBufferPointer { whole in
            Result { () throws(CBORError) -> CBOR in
                try decode(UnsafeBufferPointer(rebasing: whole[bytes.range]), storage: bytes.storage, base: bytes.range.lowerBound, reader: reader)
            }
        }
        return try result.get()
    }

    private func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, storage: [UInt8], base: Int, reader: CBORStreamReader
    ) throws(CBORError) -> CBOR {
        let (item, next, _) = try decodeItem(buffer, at: 0, storage: storage, base: base, reader: reader)
        guard next == buffer.count else {
            let count = buffer.count - next
            throw CBORError(.trailingBytes, count == 1 ? "1 byte follows the data item" : "\(count) bytes follow the data item", offset: next)
        }
        return item
    }

    /// Decodes the one data item whose head starts at `start` in `buffer`, which lies at `base`
    /// in `storage`; returns it with the offset of the first byte after it and the number of
    /// data items it holds (itself included). Offsets, in the item and in errors, count from the
    /// start of `buffer`.
    func decodeItem(
        _ buffer: UnsafeBufferPointer<UInt8>, at start: Int, storage: [UInt8], base: Int, reader: CBORStreamReader
    ) throws(CBORError) -> (item: CBOR, next: Int, itemCount: Int) {
        var builder = CBORTreeBuilder(limits: limits, storage: storage, base: base)
        var offset = start
        while offset < buffer.count {
            switch reader.step(buffer, at: offset) {
            case .event(let event, let length):
                let next = offset + length
                if let item = try builder.consume(event, at: offset, remaining: buffer.count - next) {
                    return (item, next, builder.itemCount)
                }
                offset = next
            case .needsMoreData:
                throw shortInput(buffer, at: offset, builder: builder)
            case .rejected:
                throw builder.error(.malformed, Self.rejection(of: buffer[offset]), offset: offset)
            }
        }
        throw builder.error(.truncated, "input ends before the data item is complete", offset: offset)
    }

    /// The error for an item cut short: a string whose head is complete but whose declared length
    /// runs past the input, or a head that is itself cut.
    private func shortInput(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int, builder: CBORTreeBuilder) -> CBORError {
        let initial = buffer[offset]
        let majorType = initial >> 5
        let headLength: Int
        switch initial & 0x1f {
        case 0...23: headLength = 1
        case 24: headLength = 2
        case 25: headLength = 3
        case 26: headLength = 5
        default: headLength = 9
        }
        if majorType == 2 || majorType == 3, headLength <= buffer.count - offset {
            let kind = majorType == 2 ? "byte" : "text"
            return builder.error(
                .declaredLengthExceedsInput,
                "\(kind) string declares more bytes than the \(buffer.count - offset - headLength) that follow",
                offset: offset)
        }
        return builder.error(.truncated, "input ends inside the item's head", offset: offset)
    }

    /// Why libcbor refused an initial byte (RFC 8949 section 3, 3.2.1 and 3.3).
    private static func rejection(of initial: UInt8) -> String {
        let hex = "0x" + Hex.encode([initial])
        switch initial & 0x1f {
        case 28...30:
            return "initial byte \(hex) uses reserved additional information \(initial & 0x1f)"
        case 31 where initial >> 5 != 7:
            return "initial byte \(hex) declares an indefinite length, which major type \(initial >> 5) does not allow"
        case 24 where initial == 0xf8:
            return "simple value below 32 encoded in two bytes (initial byte 0xf8) is not well-formed"
        default:
            return "initial byte \(hex) is not well-formed"
        }
    }
}

extension CBOR {
    /// Decodes one data item from `bytes` within `limits` (RFC 8949 section 3); see
    /// ``CBORDecoder``.
    public static func decode(_ bytes: [UInt8], limits: CBORLimits = .default) throws(CBORError) -> CBOR {
        try CBORDecoder(limits: limits).decode(bytes)
    }

    /// Decodes one data item from the bytes `bytes` views within `limits`; byte strings in the
    /// result are views of the same storage. See ``CBORDecoder``.
    public static func decode(_ bytes: CBORBytes, limits: CBORLimits = .default) throws(CBORError) -> CBOR {
        try CBORDecoder(limits: limits).decode(bytes)
    }
}
