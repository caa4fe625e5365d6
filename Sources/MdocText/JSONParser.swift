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

    private var scanner: JSONScanner<Failure>
    private let maximumDepth: Int

    /// Parses `bytes` (UTF-8, an optional byte order mark is skipped) as one JSON value.
    package static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(Failure) -> JSONValue {
        let scanner = JSONScanner(bytes) { reason, offset in Self.failure(reason, kind: .malformed, at: offset, in: bytes) }
        var parser = JSONParser(scanner: scanner, maximumDepth: maximumDepth)
        let value = try parser.value(depth: 1)
        parser.scanner.skipWhitespace()
        guard parser.scanner.isAtEnd else { throw parser.failure("unexpected text after the JSON value") }
        return value
    }

    private init(scanner: JSONScanner<Failure>, maximumDepth: Int) {
        self.scanner = scanner
        self.maximumDepth = maximumDepth
    }

    private func failure(_ reason: String, kind: Kind = .malformed, at position: Int? = nil) -> Failure {
        Self.failure(reason, kind: kind, at: position ?? scanner.index, in: scanner.bytes)
    }

    /// A failure at the offset `position` of `bytes`, with its line and column.
    private static func failure(_ reason: String, kind: Kind, at position: Int, in bytes: [UInt8]) -> Failure {
        let end = min(position, bytes.count)
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

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        scanner.skipWhitespace()
        guard let byte = scanner.current else { throw failure("unexpected end of the text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth <= maximumDepth else {
                throw failure("values nest deeper than \(maximumDepth) levels", kind: .tooDeep)
            }
            return byte == UInt8(ascii: "{") ? try object(depth: depth) : try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try scanner.string())
        case UInt8(ascii: "t"): try scanner.literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try scanner.literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try scanner.literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character, expected a value")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        scanner.advance()
        var members: [(String, JSONValue)] = []
        var keys = Set<String>()
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.advance()
            return .object(members)
        }
        while true {
            scanner.skipWhitespace()
            let keyStart = scanner.index
            guard scanner.current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try scanner.string()
            guard keys.insert(key).inserted else {
                throw failure("the key \"\(key)\" appears twice in one object", kind: .duplicateKey, at: keyStart)
            }
            try scanner.expect(UInt8(ascii: ":"), "\":\" after a key")
            members.append((key, try value(depth: depth + 1)))
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: ",") {
                scanner.advance()
                continue
            }
            try scanner.expect(UInt8(ascii: "}"), "\",\" or \"}\" in an object")
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        scanner.advance()
        var items: [JSONValue] = []
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.advance()
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            scanner.skipWhitespace()
            if scanner.current == UInt8(ascii: ",") {
                scanner.advance()
                continue
            }
            try scanner.expect(UInt8(ascii: "]"), "\",\" or \"]\" in an array")
            return .array(items)
        }
    }

    /// A number (RFC 8259 section 6): an integer within `Int64`, or a fraction as `Double`.
    private mutating func number() throws(Failure) -> JSONValue {
        let (text, isInteger, start) = try scanner.number()
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
