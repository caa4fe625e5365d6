import CCBOR

extension CBOR {
    /// The encoded bytes of this item (RFC 8949 section 4.2.1 preferred serialization): shortest
    /// heads, definite lengths, floating-point values in the shortest width that keeps them
    /// exact, map entries in the order the value holds them. Embedded items (tag 24) are written
    /// with exactly the bytes they hold. For the deterministic key order apply
    /// ``sortedDeterministically()`` first.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedSizeEstimate)
        encode(into: &out)
        return out
    }

    /// Appends the encoded bytes of this item to `out`; see ``encoded()``.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .unsignedInt(let n):
            CBORHeadWriter.write(into: &out) { cbor_encode_uint(n, $0, $1) }
        case .negativeInt(let n):
            CBORHeadWriter.write(into: &out) { cbor_encode_negint(n, $0, $1) }
        case .byteString(let bytes):
            Self.encodeByteStringHead(count: bytes.count, into: &out)
            bytes.withUnsafeBytes { out.append(contentsOf: $0) }
        case .textString(let text):
            var text = text
            text.withUTF8 { utf8 in
                CBORHeadWriter.write(into: &out) { cbor_encode_string_start(utf8.count, $0, $1) }
                out.append(contentsOf: utf8)
            }
        case .array(let items):
            CBORHeadWriter.write(into: &out) { cbor_encode_array_start(items.count, $0, $1) }
            for item in items { item.encode(into: &out) }
        case .map(let map):
            CBORHeadWriter.write(into: &out) { cbor_encode_map_start(map.count, $0, $1) }
            for entry in map.entries {
                entry.key.encode(into: &out)
                entry.value.encode(into: &out)
            }
        case .tagged(let tag, let content):
            CBORHeadWriter.write(into: &out) { cbor_encode_tag(tag, $0, $1) }
            content.encode(into: &out)
        case .simple(let value):
            // libcbor 0.8 has no encoder for simple values (RFC 8949 section 3.3): 0...23 fit the
            // initial byte, the others take one extra byte. 24...31 are outside the `simple`
            // case's documented range and come out as the not-well-formed `f8 18`...`f8 1f`.
            if value < 24 {
                out.append(0xe0 | value)
            } else {
                out.append(0xf8)
                out.append(value)
            }
        case .boolean(let value):
            CBORHeadWriter.write(into: &out) { cbor_encode_bool(value, $0, $1) }
        case .null:
            CBORHeadWriter.write(into: &out) { cbor_encode_null($0, $1) }
        case .undefined:
            CBORHeadWriter.write(into: &out) { cbor_encode_undef($0, $1) }
        case .float(let value):
            CBORHeadWriter.writeFloat(value, into: &out)
        }
    }

    /// Appends the head of a definite-length byte string of `count` bytes (RFC 8949 section 3.1,
    /// major type 2, shortest argument): what ``encode(into:)`` writes before the content, for a
    /// structure whose byte string content lies elsewhere and is fed on after these bytes.
    package static func encodeByteStringHead(count: Int, into out: inout [UInt8]) {
        CBORHeadWriter.write(into: &out) { cbor_encode_bytestring_start(count, $0, $1) }
    }

    /// A guess at the encoded size, so that the output buffer is allocated once for most items.
    private var encodedSizeEstimate: Int {
        switch self {
        case .byteString(let bytes): return bytes.count + 9
        case .textString(let text): return text.utf8.count + 9
        case .array(let items): return 9 + items.count * 2
        case .map(let map): return 9 + map.count * 4
        case .tagged(_, let content): return 9 + content.encodedSizeEstimate
        default: return 9
        }
    }
}

/// Writes heads through libcbor's encoding functions (encoding.h), which pick the shortest
/// argument width (RFC 8949 section 4.2.1).
enum CBORHeadWriter {
    /// The longest head: an initial byte and an 8-byte argument.
    static let maximumHeadLength = 9

    /// Calls `encode` with a scratch buffer of ``maximumHeadLength`` bytes and appends what it
    /// wrote.
    static func write(into out: inout [UInt8], _ encode: (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumHeadLength) { scratch in
            guard let base = scratch.baseAddress else { return }
            let written = min(encode(base, scratch.count), scratch.count)
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: written))
        }
    }

    /// The shortest of half, single and double precision that holds `value` exactly (RFC 8949
    /// section 4.2.1 and 4.2.2): NaN as `f97e00`, infinities as half precision.
    ///
    /// Half precision is written here rather than by `cbor_encode_half`, which in libcbor 0.8
    /// drops the significand of subnormal half-precision values.
    static func writeFloat(_ value: Double, into out: inout [UInt8]) {
        if value.isNaN {
            out.append(contentsOf: [0xf9, 0x7e, 0x00])
            return
        }
        let half = Float16(value)
        if Double(half) == value {
            let bits = half.bitPattern
            out.append(contentsOf: [0xf9, UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits)])
            return
        }
        let single = Float(value)
        if Double(single) == value {
            write(into: &out) { cbor_encode_single(single, $0, $1) }
            return
        }
        write(into: &out) { cbor_encode_double(value, $0, $1) }
    }
}
