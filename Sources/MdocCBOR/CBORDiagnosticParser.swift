/// Reads CBOR diagnostic notation (RFC 8949 section 8) back into the bytes it describes, with
/// the extensions of RFC 8610 appendix G that `mdoc inspect` prints and a conformance tester
/// needs to craft a message:
///
/// - integers (decimal, or `0x`, `0o`, `0b`; G.5) from -2^64 to 2^64-1; floats with a fraction
///   or an exponent, `Infinity`, `-Infinity`, `NaN`;
/// - `"text"` with JSON escapes, `h'hex'` and `b64'base64 or base64url'` (G.1), `'text'` as a byte
///   string of its UTF-8 (G.2), `<<item, ...>>` as a byte string of the items' encodings (G.3);
/// - `[...]`, `{key: value, ...}`, tags `N(item)`, `true`, `false`, `null`, `undefined`,
///   `simple(N)`;
/// - encoding indicators (section 8.1): `_` after `[` or `{` for indefinite length, `(_ chunk,
///   ...)` for an indefinite-length string, and `_0`...`_3` for an argument of 1, 2, 4 or 8 bytes
///   (after a number, a string, a tag number, or `[` and `{`); on a float they pick half, single
///   or double precision;
/// - comments `/ ... /` and `# ...` to the end of the line (G.6), anywhere whitespace may be.
///
/// Without an indicator every head takes its shortest form and a float the shortest width that
/// holds it exactly (section 4.2.1), so the notation `mdoc inspect` prints reads back into the
/// bytes of any message sent in preferred serialization, which ISO/IEC 18013-5 8.1 requires.
/// Byte strings shortened by `mdoc inspect` (`h'01...' / 1500 bytes /`) are refused: their bytes
/// are not in the text. Maps may hold one key twice and tags any content: the bytes are what the
/// text says, well-formed as CBOR but not necessarily valid for any structure.
public struct CBORDiagnosticParser {
    /// 256 containers (arrays, maps, tags, `<<...>>`, indefinite-length strings) open at once:
    /// far deeper than the decoder accepts (``CBORLimits/defaultMaximumDepth``), so a tester can
    /// write an item too deep for a peer, while keeping the parser's recursion bounded.
    public static let maximumDepth = 256

    /// 32 MiB of text: room for the notation of the largest message the decoder accepts
    /// (``CBORLimits/defaultMaximumInputSize``, two hex digits per byte).
    public static let maximumInputSize = 32 * 1024 * 1024

    private let text: [UInt8]
    private var index = 0

    /// The encoding of the one data item `text` describes.
    public static func encode(_ text: String) throws(CBORTextError) -> [UInt8] {
        try encode(Array(text.utf8))
    }

    /// The encoding of the one data item the UTF-8 `text` describes; an optional byte order mark
    /// is skipped.
    public static func encode(_ text: [UInt8]) throws(CBORTextError) -> [UInt8] {
        guard text.count <= maximumInputSize else {
            throw CBORTextError(
                .inputTooLarge, "the text is \(text.count) bytes, more than the \(maximumInputSize) read", offset: 0, in: [])
        }
        var parser = CBORDiagnosticParser(text: text)
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        var out: [UInt8] = []
        try parser.item(into: &out, depth: 0)
        try parser.skipSpace()
        guard parser.index == text.count else { throw parser.failure(.syntax, "unexpected text after the data item") }
        return out
    }

    private init(text: [UInt8]) {
        self.text = text
    }

    // MARK: - Lexical

    private var current: UInt8? { index < text.count ? text[index] : nil }

    private func peek(_ offset: Int) -> UInt8? { index + offset < text.count ? text[index + offset] : nil }

    private func failure(_ code: CBORTextError.Code, _ reason: String, at offset: Int? = nil) -> CBORTextError {
        CBORTextError(code, reason, offset: offset ?? index, in: text)
    }

    /// Skips whitespace and comments (`/ ... /`, `# ...` to the end of the line).
    private mutating func skipSpace() throws(CBORTextError) {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "/"):
                let start = index
                index += 1
                while let inside = current, inside != UInt8(ascii: "/") { index += 1 }
                guard current != nil else { throw failure(.syntax, "unterminated comment", at: start) }
                index += 1
            case UInt8(ascii: "#"):
                while let inside = current, inside != 0x0A { index += 1 }
            default:
                return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(CBORTextError) {
        try skipSpace()
        guard consume(byte) else { throw failure(.syntax, "expected \(what)") }
    }

    private mutating func consumeWord(_ word: String) -> Bool {
        let expected = Array(word.utf8)
        guard index + expected.count <= text.count, text[index..<index + expected.count].elementsEqual(expected) else {
            return false
        }
        if let next = peek(expected.count), Self.isWordCharacter(next) { return false }
        index += expected.count
        return true
    }

    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// An encoding indicator right after an item: `_0`...`_3` as 0...3, `nil` when there is none.
    private mutating func indicator() throws(CBORTextError) -> Int? {
        guard current == UInt8(ascii: "_"), let digit = peek(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else {
            return nil
        }
        guard digit <= UInt8(ascii: "3") else {
            throw failure(.outOfRange, "the encoding indicator _\(Character(Unicode.Scalar(digit))) is not one of _0 to _3")
        }
        index += 2
        return Int(digit - UInt8(ascii: "0"))
    }

    // MARK: - Heads

    /// Appends the head of major type `major` with `argument`: the shortest form, or the
    /// additional information 24 + `indicator` (RFC 8949 section 3 and 8.1).
    private func writeHead(
        _ major: UInt8, _ argument: UInt64, indicator: Int?, into out: inout [UInt8], at offset: Int
    ) throws(CBORTextError) {
        let width: Int
        if let indicator {
            width = 1 << indicator
            guard width == 8 || argument < (1 << (8 * UInt64(width))) else {
                throw failure(.outOfRange, "\(argument) does not fit the \(width)-byte argument of _\(indicator)", at: offset)
            }
        } else if argument < 24 {
            out.append(major << 5 | UInt8(argument))
            return
        } else {
            width = argument <= 0xFF ? 1 : argument <= 0xFFFF ? 2 : argument <= 0xFFFF_FFFF ? 4 : 8
        }
        out.append(major << 5 | UInt8(24 + width.trailingZeroBitCount))
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: argument >> UInt64(shift)))
        }
    }

    // MARK: - Items

    private mutating func item(into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        try skipSpace()
        let start = index
        guard let byte = current else { throw failure(.syntax, "unexpected end of the text, expected a data item") }
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "<"):
            guard depth < Self.maximumDepth else {
                throw failure(.depthLimitExceeded, "containers nest deeper than \(Self.maximumDepth) levels")
            }
            switch byte {
            case UInt8(ascii: "["): try container(map: false, into: &out, depth: depth + 1)
            case UInt8(ascii: "{"): try container(map: true, into: &out, depth: depth + 1)
            case UInt8(ascii: "("): try indefiniteString(into: &out, depth: depth + 1)
            default: try embedded(into: &out, depth: depth + 1)
            }
        case UInt8(ascii: "\""):
            let utf8 = try quotedText()
            try writeHead(3, UInt64(utf8.count), indicator: indicator(), into: &out, at: start)
            out.append(contentsOf: utf8)
        case UInt8(ascii: "'"):
            let utf8 = try singleQuoted()
            try writeHead(2, UInt64(utf8.count), indicator: indicator(), into: &out, at: start)
            out.append(contentsOf: utf8)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try number(into: &out, depth: depth)
        default:
            try word(into: &out, depth: depth)
        }
    }

    /// `true`, `false`, `null`, `undefined`, `simple(N)`, `Infinity`, `NaN`, `h'...'`, `b64'...'`.
    private mutating func word(into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        let start = index
        if consumeWord("false") { out.append(0xF4) }
        else if consumeWord("true") { out.append(0xF5) }
        else if consumeWord("null") { out.append(0xF6) }
        else if consumeWord("undefined") { out.append(0xF7) }
        else if consumeWord("Infinity") { try float(.infinity, into: &out, at: start) }
        else if consumeWord("NaN") { try float(.nan, into: &out, at: start) }
        else if consumeWord("simple") {
            try expect(UInt8(ascii: "("), "\"(\" after simple")
            try skipSpace()
            let valueStart = index
            guard let value = unsignedInteger(), value <= 255, !(24...31).contains(value) else {
                throw failure(.outOfRange, "a simple value is 0 to 23 or 32 to 255", at: valueStart)
            }
            try expect(UInt8(ascii: ")"), "\")\" after the simple value")
            if value < 24 {
                out.append(0xE0 | UInt8(value))
            } else {
                out.append(contentsOf: [0xF8, UInt8(value)])
            }
        } else if current == UInt8(ascii: "h"), peek(1) == UInt8(ascii: "'") {
            index += 1
            let content = try singleQuotedRaw(comments: true)
            guard let bytes = Hex.decode(String(decoding: content, as: UTF8.self)) else {
                throw failure(.outOfRange, "h'...' holds hex digits in pairs", at: start)
            }
            try writeHead(2, UInt64(bytes.count), indicator: indicator(), into: &out, at: start)
            out.append(contentsOf: bytes)
        } else if consumeWord("b64") {
            guard current == UInt8(ascii: "'") else { throw failure(.syntax, "expected ' after b64", at: start) }
            let content = try singleQuotedRaw(comments: false).filter { ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "=")].contains($0) }
            let normalized = content.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            guard let bytes = Base64URL.decode(String(decoding: normalized, as: UTF8.self)) else {
                throw failure(.outOfRange, "b64'...' holds base64 or base64url", at: start)
            }
            try writeHead(2, UInt64(bytes.count), indicator: indicator(), into: &out, at: start)
            out.append(contentsOf: bytes)
        } else {
            throw failure(.syntax, "unexpected character, expected a data item")
        }
    }

    /// An integer, a float, or a tag `N(item)`.
    private mutating func number(into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        let start = index
        let negative = consume(UInt8(ascii: "-"))
        if negative, consumeWord("Infinity") {
            try float(-.infinity, into: &out, at: start)
            return
        }
        let digitsStart = index
        if current == UInt8(ascii: "0"), let radixMark = peek(1), [UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "b")].contains(radixMark) {
            index += 2
            let radix = radixMark == UInt8(ascii: "x") ? 16 : radixMark == UInt8(ascii: "o") ? 8 : 2
            let digits = digitRun { Self.isWordCharacter($0) }
            guard !digits.isEmpty, let magnitude = UInt64(digits, radix: radix) else {
                throw failure(.outOfRange, "the integer \(String(decoding: text[start..<index], as: UTF8.self)) is not a base-\(radix) integer of 64 bits", at: start)
            }
            try integer(negative: negative, magnitude: magnitude, into: &out, at: start)
            return
        }
        var isFloat = false
        _ = digitRun { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard index > digitsStart else { throw failure(.syntax, "a number needs digits", at: start) }
        if current == UInt8(ascii: "."), let next = peek(1), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
            isFloat = true
            index += 1
            _ = digitRun { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isFloat = true
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            _ = digitRun { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard index > exponentStart else { throw failure(.syntax, "an exponent needs digits", at: start) }
        }
        let literal = String(decoding: text[start..<index], as: UTF8.self)
        if isFloat {
            guard let value = Double(literal), value.isFinite else {
                throw failure(.outOfRange, "the number \(literal) is outside the double range", at: start)
            }
            try float(value, into: &out, at: start)
            return
        }
        let digits = String(decoding: text[digitsStart..<index], as: UTF8.self)
        guard let magnitude = UInt64(digits) else {
            if negative, digits == "18446744073709551616" {
                try writeHead(1, UInt64.max, indicator: indicator(), into: &out, at: start)
                return
            }
            throw failure(.outOfRange, "the integer \(literal) is outside -2^64 to 2^64-1", at: start)
        }
        if !negative, current == UInt8(ascii: "(") || (current == UInt8(ascii: "_") && peek(2) == UInt8(ascii: "(")) {
            try tag(magnitude, into: &out, depth: depth, at: start)
            return
        }
        try integer(negative: negative, magnitude: magnitude, into: &out, at: start)
    }

    private mutating func digitRun(_ accepts: (UInt8) -> Bool) -> String {
        let start = index
        while let byte = current, accepts(byte) { index += 1 }
        return String(decoding: text[start..<index], as: UTF8.self)
    }

    private mutating func unsignedInteger() -> UInt64? {
        UInt64(digitRun { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    }

    private mutating func integer(negative: Bool, magnitude: UInt64, into out: inout [UInt8], at start: Int) throws(CBORTextError) {
        if negative {
            guard magnitude > 0 else {
                // -0 is the integer 0.
                try writeHead(0, 0, indicator: indicator(), into: &out, at: start)
                return
            }
            try writeHead(1, magnitude - 1, indicator: indicator(), into: &out, at: start)
        } else {
            try writeHead(0, magnitude, indicator: indicator(), into: &out, at: start)
        }
    }

    /// `value` in the width of its indicator (`_1` half, `_2` single, `_3` double; RFC 8949
    /// section 8.1), else the shortest that holds it exactly.
    private mutating func float(_ value: Double, into out: inout [UInt8], at start: Int) throws(CBORTextError) {
        switch try indicator() {
        case nil:
            CBORHeadWriter.writeFloat(value, into: &out)
        case 1:
            let half = Float16(value)
            guard Double(half) == value || value.isNaN else {
                throw failure(.outOfRange, "\(value) is not exact in half precision (_1)", at: start)
            }
            let bits = value.isNaN ? 0x7E00 : half.bitPattern
            out.append(contentsOf: [0xF9, UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits)])
        case 2:
            let single = Float(value)
            guard Double(single) == value || value.isNaN else {
                throw failure(.outOfRange, "\(value) is not exact in single precision (_2)", at: start)
            }
            let bits = value.isNaN ? 0x7FC0_0000 : single.bitPattern
            out.append(0xFA)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
        case 3:
            let bits = value.isNaN ? 0x7FF8_0000_0000_0000 : value.bitPattern
            out.append(0xFB)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        default:
            throw failure(.outOfRange, "a float takes _1, _2 or _3", at: start)
        }
    }

    /// `N(item)` or `N_i(item)`, `index` after the tag number.
    private mutating func tag(_ number: UInt64, into out: inout [UInt8], depth: Int, at start: Int) throws(CBORTextError) {
        guard depth < Self.maximumDepth else {
            throw failure(.depthLimitExceeded, "containers nest deeper than \(Self.maximumDepth) levels")
        }
        try writeHead(6, number, indicator: indicator(), into: &out, at: start)
        index += 1
        try item(into: &out, depth: depth + 1)
        try expect(UInt8(ascii: ")"), "\")\" after the tag's content")
    }

    /// `[...]` or `{...}`, with `_` (indefinite length) or `_0`...`_3` after the bracket.
    private mutating func container(map: Bool, into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        let start = index
        index += 1
        let close = map ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var width: Int?
        var indefinite = false
        if current == UInt8(ascii: "_") {
            if let given = try indicator() {
                width = given
            } else {
                index += 1
                indefinite = true
            }
        }
        var content: [UInt8] = []
        var count: UInt64 = 0
        try skipSpace()
        if !consume(close) {
            while true {
                try item(into: &content, depth: depth)
                if map {
                    try expect(UInt8(ascii: ":"), "\":\" after a map key")
                    try item(into: &content, depth: depth)
                }
                count += 1
                try skipSpace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(close) else {
                    throw failure(.syntax, map ? "expected \",\" or \"}\" in a map" : "expected \",\" or \"]\" in an array")
                }
                break
            }
        }
        let major: UInt8 = map ? 5 : 4
        if indefinite {
            out.append(major << 5 | 31)
            out.append(contentsOf: content)
            out.append(0xFF)
        } else {
            try writeHead(major, count, indicator: width, into: &out, at: start)
            out.append(contentsOf: content)
        }
    }

    /// `(_ chunk, ...)`: an indefinite-length byte or text string (RFC 8949 section 8.1), each
    /// chunk a definite-length string of the same major type.
    private mutating func indefiniteString(into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        let start = index
        index += 1
        try skipSpace()
        guard consume(UInt8(ascii: "_")) else { throw failure(.syntax, "expected \"_\" after \"(\" of an indefinite-length string") }
        var chunks: [UInt8] = []
        var major: UInt8?
        try skipSpace()
        if !consume(UInt8(ascii: ")")) {
            while true {
                try skipSpace()
                let chunkStart = index
                let before = chunks.count
                try item(into: &chunks, depth: depth)
                let chunkMajor = chunks[before] >> 5
                guard chunkMajor == 2 || chunkMajor == 3, chunks[before] & 0x1F != 31 else {
                    throw failure(.syntax, "a chunk of an indefinite-length string is a definite-length byte or text string", at: chunkStart)
                }
                guard major == nil || major == chunkMajor else {
                    throw failure(.syntax, "the chunks of an indefinite-length string are all byte strings or all text strings", at: chunkStart)
                }
                major = chunkMajor
                try skipSpace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: ")")) else { throw failure(.syntax, "expected \",\" or \")\" in an indefinite-length string") }
                break
            }
        }
        guard let major else {
            throw failure(.syntax, "an empty indefinite-length string says nothing of its type: write '' or \"\"", at: start)
        }
        out.append(major << 5 | 31)
        out.append(contentsOf: chunks)
        out.append(0xFF)
    }

    /// `<<item, ...>>`: a byte string holding the encodings of the items (RFC 8610 G.3).
    private mutating func embedded(into out: inout [UInt8], depth: Int) throws(CBORTextError) {
        let start = index
        guard peek(1) == UInt8(ascii: "<") else { throw failure(.syntax, "expected \"<<\"") }
        index += 2
        var content: [UInt8] = []
        try skipSpace()
        if !(current == UInt8(ascii: ">") && peek(1) == UInt8(ascii: ">")) {
            while true {
                try item(into: &content, depth: depth)
                try skipSpace()
                if consume(UInt8(ascii: ",")) { continue }
                break
            }
        }
        guard current == UInt8(ascii: ">"), peek(1) == UInt8(ascii: ">") else { throw failure(.syntax, "expected \",\" or \">>\"") }
        index += 2
        try writeHead(2, UInt64(content.count), indicator: indicator(), into: &out, at: start)
        out.append(contentsOf: content)
    }

    // MARK: - Strings

    /// The UTF-8 of a JSON string literal (RFC 8259 section 7), `index` at its opening quote.
    private mutating func quotedText() throws(CBORTextError) -> [UInt8] {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw failure(.syntax, "unterminated text string", at: start) }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard String(validating: utf8, as: UTF8.self) != nil else {
                    throw failure(.syntax, "the text string is not valid UTF-8", at: start)
                }
                return utf8
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case 0x00..<0x20:
                throw failure(.syntax, "a control character must be escaped in a text string", at: index - 1)
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(CBORTextError) {
        guard let byte = current else { throw failure(.syntax, "unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                guard current == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw failure(.syntax, "a high surrogate escape must be followed by a low one")
                }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw failure(.syntax, "a high surrogate escape must be followed by a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let character = Unicode.Scalar(scalar) else { throw failure(.syntax, "the escape is a lone surrogate") }
            utf8.append(contentsOf: Array(String(Character(character)).utf8))
        default:
            throw failure(.syntax, "unknown escape \\\(Character(Unicode.Scalar(byte)))", at: index - 2)
        }
    }

    private mutating func hexQuad() throws(CBORTextError) -> UInt32 {
        guard index + 4 <= text.count, let value = UInt32(String(decoding: text[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure(.syntax, "\\u must be followed by four hex digits")
        }
        index += 4
        return value
    }

    /// The UTF-8 of `'text'` (RFC 8610 G.2), with `\'` and `\\` escapes.
    private mutating func singleQuoted() throws(CBORTextError) -> [UInt8] {
        let start = index
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw failure(.syntax, "unterminated '...' string", at: start) }
            index += 1
            switch byte {
            case UInt8(ascii: "'"): return utf8
            case UInt8(ascii: "\\"): try escape(into: &utf8)
            default: utf8.append(byte)
            }
        }
    }

    /// The characters between `'` and `'` of `h'...'` or `b64'...'`, `index` at the opening
    /// quote; with `comments` (hex, whose digits hold no `/` or `#`), comments left out.
    private mutating func singleQuotedRaw(comments: Bool) throws(CBORTextError) -> [UInt8] {
        let start = index
        index += 1
        var content: [UInt8] = []
        while true {
            guard let byte = current else { throw failure(.syntax, "unterminated '...' string", at: start) }
            switch byte {
            case UInt8(ascii: "'"):
                index += 1
                return content
            case UInt8(ascii: "/") where comments, UInt8(ascii: "#") where comments:
                try skipSpace()
            case UInt8(ascii: "."):
                throw failure(.syntax, "a shortened byte string (\"...\") does not hold its bytes")
            default:
                content.append(byte)
                index += 1
            }
        }
    }
}
