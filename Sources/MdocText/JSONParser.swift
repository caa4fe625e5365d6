/// A strict JSON reader (RFC 8259), for issuer data files and JWS headers, that keeps object
/// members in file order and reports duplicate keys, which `JSONSerialization` does neither of,
/// and tells integers (kept exactly as `Int64`) from fractions and booleans.
package struct JSONParser {
    /// What kind of failure a ``Failure`` is.
    package enum Kind: Sendable {
        /// The text is not JSON.
        case malformed
        /// Values nest deeper than the maximum depth.
        case tooDeep
        /// An object has the same key twice.
        case duplicateKey
        /// A number outside the 64-bit integer or the double range.
        case outOfRange
    }

    /// A failure with its kind, line and column (both from 1) and reason.
    package struct Failure: Error {
        package let kind: Kind
        package let line: Int
        package let column: Int
        package let reason: String
    }

    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0

    /// Parses `bytes` (UTF-8, an optional byte order mark is skipped) as one JSON value.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.value(depth: 1)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func failure(_ reason: String, kind: Kind = .malformed, at position: Int? = nil) -> Failure {
        let end = min(position ?? index, bytes.count)
        var line = 1
        var lineStart = 0
        for offset in 0..<end where bytes[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        // Columns count characters, not the continuation bytes of UTF-8 sequences.
        let column = bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1
        return Failure(kind: kind, line: line, column: column, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard current == byte else { throw failure("expected \(what)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end of the text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth <= maximumDepth else {
                throw failure("values nest deeper than \(maximumDepth) levels", kind: .tooDeep)
            }
            return byte == UInt8(ascii: "{") ? try object(depth: depth) : try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character, expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("unexpected word, expected \(word)")
        }
        index += expected.count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        var keys = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyStart = index
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try string()
            guard keys.insert(key).inserted else {
                throw failure("the key \"\(key)\" appears twice in one object", kind: .duplicateKey, at: keyStart)
            }
            try expect(UInt8(ascii: ":"), "\":\" after a key")
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "}"), "\",\" or \"}\" in an object")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(UInt8(ascii: "]"), "\",\" or \"]\" in an array")
            return .array(items)
        }
    }

    /// A string (RFC 8259 section 7), `index` at its opening quote.
    private mutating func string() throws(Failure) -> String {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("unterminated string", at: start) }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0x00..<0x20:
                throw failure("a control character must be escaped in a string", at: index - 1)
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw failure("unknown escape \\\(Character(Unicode.Scalar(byte)))", at: index - 2) }
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate escape must be followed by a low one")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate escape must be followed by a low one") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let character = Unicode.Scalar(scalar) else { throw failure("the escape is a lone surrogate") }
        utf8.append(contentsOf: Array(String(Character(character)).utf8))
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw failure("\\u must be followed by four hex digits") }
        index += 4
        return value
    }

    /// A number (RFC 8259 section 6): an integer within `Int64`, or a fraction as `Double`.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { parser.index += 1 }
            return parser.index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("a number needs digits", at: start) }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw failure("a number must not have leading zeros", at: start)
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits(&self) > 0 else { throw failure("a fraction needs digits after \".\"", at: start) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw failure("an exponent needs digits", at: start) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger {
            guard let value = Int64(text) else {
                throw failure("the integer \(text) is outside the 64-bit range", kind: .outOfRange, at: start)
            }
            return .int(value)
        }
        guard let value = Double(text), value.isFinite else {
            throw failure("the number \(text) is outside the double range", kind: .outOfRange, at: start)
        }
        return .double(value)
    }
}
