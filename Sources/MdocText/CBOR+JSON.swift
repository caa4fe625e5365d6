import MdocCBOR

extension CBOR {
    /// A readable JSON rendering of a data element value, as the verification report of
    /// `mdoc-reader --json` writes element values. (`mdoc inspect --json` writes
    /// `losslessJSON` (MdocInspection), from which the item can be rebuilt exactly.)
    ///
    /// JSON has no byte strings, tags or non-text keys, so those become small objects; everything
    /// else maps directly:
    /// - byte string: `{"hex": "..."}`;
    /// - tag 24 with decodable content: `{"tag": 24, "value": <embedded item>}`;
    /// - tdate (tag 0) and full-date (tag 1004): the text itself;
    /// - other tags: `{"tag": n, "value": ...}`;
    /// - maps with text keys: objects in received order; maps with other keys: arrays of
    ///   `[key, value]` pairs;
    /// - undefined and simple values: `{"simple": n}`; NaN and infinities: their names as text.
    public func jsonValue(expandEmbedded: Bool = true) -> JSONValue {
        switch self {
        case .unsignedInt(let n):
            return n <= UInt64(Int64.max) ? .int(Int64(n)) : .bigInteger(String(n))
        case .negativeInt(let n):
            if n <= UInt64(Int64.max) { return .int(-1 - Int64(n)) }
            // -1 - n for n above Int64.max: print the magnitude n + 1, which may be 2^64.
            return .bigInteger(n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1))
        case .byteString(let b):
            return .object([("hex", .string(Hex.encode(b)))])
        case .textString(let s):
            return .string(s)
        case .array(let items):
            return .array(items.map { $0.jsonValue(expandEmbedded: expandEmbedded) })
        case .map(let map):
            if map.entries.allSatisfy({ $0.key.textValue != nil }) {
                return .object(map.entries.map { ($0.key.textValue ?? "", $0.value.jsonValue(expandEmbedded: expandEmbedded)) })
            }
            return .array(map.entries.map { .array([$0.key.jsonValue(expandEmbedded: expandEmbedded), $0.value.jsonValue(expandEmbedded: expandEmbedded)]) })
        case .tagged(let tag, let content):
            if (tag == CBOR.Tag.dateTimeString || tag == CBOR.Tag.fullDateString), let text = content.textValue {
                return .string(text)
            }
            if tag == CBOR.Tag.encodedCBOR, expandEmbedded, let bytes = content.bytesValue,
                let embedded = try? CBOR.decode(bytes)
            {
                return .object([("tag", .int(Int64(tag))), ("value", embedded.jsonValue(expandEmbedded: true))])
            }
            return .object([("tag", tag <= UInt64(Int64.max) ? .int(Int64(tag)) : .bigInteger(String(tag))), ("value", content.jsonValue(expandEmbedded: expandEmbedded))])
        case .simple(let v):
            return .object([("simple", .int(Int64(v)))])
        case .boolean(let b):
            return .bool(b)
        case .null:
            return .null
        case .undefined:
            return .object([("simple", .int(23))])
        case .float(let d):
            if d.isNaN { return .string("NaN") }
            if d.isInfinite { return .string(d < 0 ? "-Infinity" : "Infinity") }
            return .double(d)
        }
    }
}
