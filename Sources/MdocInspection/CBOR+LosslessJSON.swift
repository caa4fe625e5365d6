import MdocCBOR
import MdocText

extension CBOR {
    /// The JSON of `mdoc inspect --json`: every CBOR item written so that the item can be
    /// rebuilt from the JSON exactly, with one rule per kind of item wherever it occurs
    /// (docs/inspect-json.md):
    ///
    /// - integers: JSON numbers, exact at any size CBOR allows (-2^64 to 2^64-1);
    /// - floats: JSON numbers with a fraction or exponent; NaN and infinities: `{"$float": "NaN"}`,
    ///   `{"$float": "Infinity"}`, `{"$float": "-Infinity"}`;
    /// - text strings: JSON strings; byte strings: `{"$bytes": "<base64url without padding>"}`;
    /// - arrays: JSON arrays;
    /// - maps whose keys are all text or integers: JSON objects in received order; an integer key
    ///   is written as its decimal text (`1`, `-1`), and a text key that begins with `$` or reads
    ///   as such a decimal gets one more `$` in front (`"$$x"`, `"$1"`); maps with any other key,
    ///   or with a key twice: `{"$map": [[key, value], ...]}`;
    /// - tags: `{"$tag": n, "$value": content}`, tdate (0) and full-date (1004) included; tag 24
    ///   over a byte string that is well-formed CBOR also gets `"$embedded"`, the item inside;
    /// - true, false, null: themselves; undefined and other simple values: `{"$simple": n}`.
    ///
    /// Objects with a key beginning with `$` are therefore never maps, and every map key reads
    /// back as the key it was.
    public var losslessJSON: JSONValue {
        switch self {
        case .unsignedInt(let n):
            return n <= UInt64(Int64.max) ? .int(Int64(n)) : .bigInteger(String(n))
        case .negativeInt(let n):
            return n <= UInt64(Int64.max) ? .int(-1 - Int64(n)) : .bigInteger(Self.negativeDecimal(n))
        case .byteString(let bytes):
            return .object([("$bytes", .string(Base64URL.encode(Array(bytes))))])
        case .textString(let text):
            return .string(text)
        case .array(let items):
            return .array(items.map(\.losslessJSON))
        case .map(let map):
            var members: [(String, JSONValue)] = []
            members.reserveCapacity(map.count)
            var names = Set<String>()
            for entry in map.entries {
                // A key twice (a crafted map) cannot be an object's: JSON names are unique.
                guard let key = Self.objectKey(entry.key), names.insert(key).inserted else {
                    return .object([("$map", .array(map.entries.map { .array([$0.key.losslessJSON, $0.value.losslessJSON]) }))])
                }
                members.append((key, entry.value.losslessJSON))
            }
            return .object(members)
        case .tagged(let tag, let content):
            let number: JSONValue = tag <= UInt64(Int64.max) ? .int(Int64(tag)) : .bigInteger(String(tag))
            var members: [(String, JSONValue)] = [("$tag", number), ("$value", content.losslessJSON)]
            if tag == CBOR.Tag.encodedCBOR, case .byteString(let bytes) = content, let embedded = try? CBOR.decode(bytes) {
                members.append(("$embedded", embedded.losslessJSON))
            }
            return .object(members)
        case .simple(let value):
            return .object([("$simple", .int(Int64(value)))])
        case .boolean(let value):
            return .bool(value)
        case .null:
            return .null
        case .undefined:
            return .object([("$simple", .int(23))])
        case .float(let value):
            if value.isNaN { return .object([("$float", .string("NaN"))]) }
            if value.isInfinite { return .object([("$float", .string(value < 0 ? "-Infinity" : "Infinity"))]) }
            return .double(value)
        }
    }

    /// The object key of a map key: an integer as its decimal text, a text as itself with a `$`
    /// in front when it begins with `$` or reads as an integer; `nil` for any other key.
    static func objectKey(_ key: CBOR) -> String? {
        switch key {
        case .unsignedInt(let n): return String(n)
        case .negativeInt(let n): return negativeDecimal(n)
        case .textString(let text): return text.hasPrefix("$") || isDecimalInteger(text) ? "$" + text : text
        default: return nil
        }
    }

    /// The decimal text of `-1 - n`, exact for every `n` (down to -2^64).
    static func negativeDecimal(_ n: UInt64) -> String {
        if n == UInt64.max { return "-18446744073709551616" }
        return "-" + String(n + 1)
    }

    /// Whether `text` is what ``objectKey(_:)`` writes for an integer key: `0`, or an optional
    /// `-` followed by a non-zero digit and more digits.
    static func isDecimalInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.hasPrefix("-") { digits = digits.dropFirst() }
        guard let first = digits.first, first.isASCII, first.isNumber else { return false }
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return digits == "0" ? text == "0" : first != "0"
    }
}
