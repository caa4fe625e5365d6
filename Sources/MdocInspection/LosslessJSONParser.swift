import MdocCBOR
import MdocText

/// Reads the JSON of `mdoc inspect --json` (docs/inspect-json.md) back into the CBOR item it
/// holds: the inverse of `CBOR/losslessJSON`.
///
/// The JSON holds the data model (RFC 8949 section 2), not the encoding: encoding the item read
/// back (`CBOR/encoded()`, preferred serialization, section 4.2.1) gives the bytes of
/// the item `mdoc inspect --json` was given whenever that item was sent in preferred
/// serialization, as ISO/IEC 18013-5 8.1 requires; the bytes of a tag 24 are kept exactly in
/// `$value` in any case. Widths of heads and floats and indefinite lengths are written with
/// encoding indicators in diagnostic notation (`CBORDiagnosticParser`).
///
/// Reading back follows the mapping's rules: an object whose first key begins with a single `$`
/// (not `$$`, not `$` and a decimal integer) is a special form (`$bytes`, `$float`, `$simple`,
/// `$tag` with `$value` and `$embedded`, `$map`), any other object a map whose keys read back as
/// integers (a decimal text), text after a leading `$`, or text. A tag 24 may give `$embedded`
/// without `$value`: its bytes are then the encoding of `$embedded`; given both, `$embedded`
/// must be what `$value` decodes to, so that a change to one of them is not silently lost.
public struct LosslessJSONParser {
    /// 256 JSON arrays and objects open at once: deeper than the CBOR any reader decodes
    /// (`CBORLimits/defaultMaximumDepth`), so a tester can write an item too deep for
    /// a peer, while keeping the parser's recursion bounded.
    public static let maximumDepth = 256

    /// 32 MiB of text: room for the JSON of the largest message the decoder accepts
    /// (`CBORLimits/defaultMaximumInputSize`, in base64url with the JSON around it).
    public static let maximumInputSize = 32 * 1024 * 1024

    private var scanner: JSONScanner<CBORTextError>

    /// The item the JSON `text` holds.
    public static func decode(_ text: String) throws(CBORTextError) -> CBOR {
        try decode(Array(text.utf8))
    }

    /// The item the UTF-8 JSON `text` holds; an optional byte order mark is skipped.
    public static func decode(_ text: [UInt8]) throws(CBORTextError) -> CBOR {
        guard text.count <= maximumInputSize else {
            throw CBORTextError(.inputTooLarge, "the text is \(text.count) bytes, more than the \(maximumInputSize) read", offset: 0, in: [])
        }
        var parser = LosslessJSONParser(scanner: JSONScanner(text) { reason, offset in CBORTextError(.syntax, reason, offset: offset, in: text) })
        let item = try parser.item(depth: 0)
        parser.scanner.skipWhitespace()
        guard parser.scanner.isAtEnd else { throw parser.failure(.syntax, "unexpected text after the JSON value") }
        return item
    }

    private init(scanner: JSONScanner<CBORTextError>) {
        self.scanner = scanner
    }

    private func failure(_ code: CBORTextError.Code, _ reason: String, at offset: Int? = nil) -> CBORTextError {
        CBORTextError(code, reason, offset: offset ?? scanner.index, in: scanner.bytes)
    }

    private mutating func item(depth: Int) throws(CBORTextError) -> CBOR {
        scanner.skipWhitespace()
        guard let byte = scanner.current else { throw failure(.syntax, "unexpected end of the text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else {
                throw failure(.depthLimitExceeded, "values nest deeper than \(Self.maximumDepth) levels")
            }
            return byte == UInt8(ascii: "{") ? try object(depth: depth + 1) : .array(try array(depth: depth + 1))
        case UInt8(ascii: "\""): return .textString(try scanner.string())
        case UInt8(ascii: "t"): try scanner.literal("true"); return .boolean(true)
        case UInt8(ascii: "f"): try scanner.literal("false"); return .boolean(false)
        case UInt8(ascii: "n"): try scanner.literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure(.syntax, "unexpected character, expected a value")
        }
    }

    private mutating func array(depth: Int) throws(CBORTextError) -> [CBOR] {
        scanner.advance()
        var items: [CBOR] = []
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.advance()
            return items
        }
        while true {
            items.append(try item(depth: depth))
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: ",") {
                scanner.advance()
                continue
            }
            try scanner.expect(UInt8(ascii: "]"), "\",\" or \"]\" in an array")
            return items
        }
    }

    /// One member of an object: its key, its value and where each starts.
    private struct Member {
        let key: String
        let keyOffset: Int
        let value: CBOR
        let valueOffset: Int
    }

    private mutating func object(depth: Int) throws(CBORTextError) -> CBOR {
        let start = scanner.index
        scanner.advance()
        var members: [Member] = []
        var keys = Set<String>()
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.advance()
        } else {
            while true {
                scanner.skipWhitespace()
                let keyOffset = scanner.index
                guard scanner.current == UInt8(ascii: "\"") else { throw failure(.syntax, "expected a string key") }
                let key = try scanner.string()
                guard keys.insert(key).inserted else {
                    throw failure(.syntax, "the key \"\(key)\" appears twice in one object", at: keyOffset)
                }
                try scanner.expect(UInt8(ascii: ":"), "\":\" after a key")
                scanner.skipWhitespace()
                let valueOffset = scanner.index
                members.append(Member(key: key, keyOffset: keyOffset, value: try item(depth: depth), valueOffset: valueOffset))
                scanner.skipWhitespace()
                if scanner.current == UInt8(ascii: ",") {
                    scanner.advance()
                    continue
                }
                try scanner.expect(UInt8(ascii: "}"), "\",\" or \"}\" in an object")
                break
            }
        }
        if let first = members.first, Self.isSpecial(first.key) {
            return try special(members, at: start)
        }
        var map = CBORMap()
        var mapKeys = Set<CBOR>()
        for member in members {
            let key = try mapKey(member.key, at: member.keyOffset)
            // An object holds each key once (`"x"` and `"$x"` are both the text key "x"); a map
            // with a key twice, crafted on purpose (RFC 8949 section 5.6), is written with $map.
            guard mapKeys.insert(key).inserted else {
                throw failure(.invalidForm, "the object holds the key \(member.key) twice; a map with a key twice is written {\"$map\": [[key, value], ...]}", at: member.keyOffset)
            }
            map.entries.append(CBORMap.Entry(key: key, value: member.value))
        }
        return .map(map)
    }

    /// Whether an object whose first key is `key` is a special form: a single `$`, not followed by
    /// `$` or a decimal integer.
    private static func isSpecial(_ key: String) -> Bool {
        guard key.hasPrefix("$") else { return false }
        let rest = String(key.dropFirst())
        return !rest.hasPrefix("$") && !CBOR.isDecimalInteger(rest)
    }

    /// A map key as written by `CBOR/losslessJSON`: `$` and the text, a decimal
    /// integer, or the text itself.
    private func mapKey(_ key: String, at offset: Int) throws(CBORTextError) -> CBOR {
        if key.hasPrefix("$") { return .textString(String(key.dropFirst())) }
        guard CBOR.isDecimalInteger(key) else { return .textString(key) }
        guard let integer = Self.integer(key) else {
            throw failure(.outOfRange, "the integer key \(key) is outside -2^64 to 2^64-1", at: offset)
        }
        return integer
    }

    /// The integer of decimal `digits` (an optional `-` and digits), `nil` outside -2^64...2^64-1.
    private static func integer(_ digits: String) -> CBOR? {
        if digits.hasPrefix("-") {
            if digits == "-18446744073709551616" { return .negativeInt(.max) }
            guard let magnitude = UInt64(digits.dropFirst()), magnitude > 0 else { return digits == "-0" ? .unsignedInt(0) : nil }
            return .negativeInt(magnitude - 1)
        }
        return UInt64(digits).map { .unsignedInt($0) }
    }

    /// The item of a special form (docs/inspect-json.md).
    private func special(_ members: [Member], at start: Int) throws(CBORTextError) -> CBOR {
        let first = members[0]
        func only(_ member: Member) throws(CBORTextError) -> CBOR {
            if members.count > 1 {
                throw failure(.invalidForm, "\(member.key) has no member \"\(members[1].key)\"", at: members[1].keyOffset)
            }
            return member.value
        }
        switch first.key {
        case "$bytes":
            guard case .textString(let encoded) = try only(first), let bytes = Base64URL.decode(encoded) else {
                throw failure(.invalidForm, "$bytes is base64url text without padding (RFC 4648 section 5)", at: first.valueOffset)
            }
            return .byteString(bytes)
        case "$float":
            switch try only(first) {
            case "NaN": return .float(.nan)
            case "Infinity": return .float(.infinity)
            case "-Infinity": return .float(-.infinity)
            default: throw failure(.invalidForm, "$float is \"NaN\", \"Infinity\" or \"-Infinity\"", at: first.valueOffset)
            }
        case "$simple":
            guard let value = try only(first).uint64Value, value <= 255, !(24...31).contains(value) else {
                throw failure(.outOfRange, "$simple is 0 to 23 or 32 to 255", at: first.valueOffset)
            }
            switch value {
            case 20: return .boolean(false)
            case 21: return .boolean(true)
            case 22: return .null
            case 23: return .undefined
            default: return .simple(UInt8(value))
            }
        case "$map":
            guard case .array(let pairs) = try only(first) else {
                throw failure(.invalidForm, "$map is an array of [key, value] pairs", at: first.valueOffset)
            }
            var map = CBORMap()
            for pair in pairs {
                guard case .array(let entry) = pair, entry.count == 2 else {
                    throw failure(.invalidForm, "$map is an array of [key, value] pairs", at: first.valueOffset)
                }
                map.entries.append(CBORMap.Entry(key: entry[0], value: entry[1]))
            }
            return .map(map)
        case "$tag", "$value", "$embedded":
            return try tag(members, at: start)
        default:
            throw failure(
                .invalidForm, "\(first.key) is not a special form ($bytes, $float, $simple, $map, $tag); a map key that begins with $ is written $\(first.key)",
                at: first.keyOffset)
        }
    }

    /// `{"$tag": N, "$value": content}`, with `$embedded` for tag 24.
    private func tag(_ members: [Member], at start: Int) throws(CBORTextError) -> CBOR {
        var number: UInt64?
        var content: CBOR?
        var embedded: (item: CBOR, offset: Int)?
        for member in members {
            switch member.key {
            case "$tag":
                guard let value = member.value.uint64Value else {
                    throw failure(.invalidForm, "$tag is an unsigned integer", at: member.valueOffset)
                }
                number = value
            case "$value": content = member.value
            case "$embedded": embedded = (member.value, member.valueOffset)
            default: throw failure(.invalidForm, "a tag has $tag, $value and $embedded, not \(member.key)", at: member.keyOffset)
            }
        }
        guard let number else { throw failure(.invalidForm, "a tag needs $tag", at: start) }
        if let embedded {
            guard number == CBOR.Tag.encodedCBOR else {
                throw failure(.invalidForm, "$embedded belongs to tag 24 only", at: embedded.offset)
            }
            guard let content else { return .encodedCBOR(embedded.item.encoded()) }
            guard case .byteString(let bytes) = content, let decoded = try? CBOR.decode(bytes), decoded.encoded() == embedded.item.encoded() else {
                throw failure(
                    .invalidForm, "$embedded is not what $value's bytes hold: change one of them and leave the other out",
                    at: embedded.offset)
            }
        }
        guard let content else { throw failure(.invalidForm, "a tag needs $value", at: start) }
        return .tagged(number, content)
    }

    /// A number (RFC 8259 section 6): an integer from -2^64 to 2^64-1, or with a fraction or an
    /// exponent a float.
    private mutating func number() throws(CBORTextError) -> CBOR {
        let (literal, isInteger, start) = try scanner.number()
        if isInteger {
            guard let integer = Self.integer(literal) else {
                throw failure(.outOfRange, "the integer \(literal) is outside -2^64 to 2^64-1", at: start)
            }
            return integer
        }
        guard let value = Double(literal), value.isFinite else {
            throw failure(.outOfRange, "the number \(literal) is outside the double range", at: start)
        }
        return .float(value)
    }
}
