/// The lexical layer of JSON (RFC 8259) that the two JSON readers share, ``JSONParser`` and
/// MdocInspection's `LosslessJSONParser`: whitespace, punctuation, the three literal names,
/// strings (section 7) and the text of numbers (section 6), read from UTF-8 bytes. What a value
/// becomes, nesting and duplicate keys are the readers'; so is the error a failure is, which the
/// reader makes from the reason and the offset where the text is not JSON.
package struct JSONScanner<Failure: Error> {
    /// The text.
    package let bytes: [UInt8]
    /// The offset of the next byte to read.
    package private(set) var index = 0
    /// The reader's error for a reason at an offset.
    private let makeFailure: @Sendable (_ reason: String, _ offset: Int) -> Failure

    /// A scanner at the start of `bytes`, after a UTF-8 byte order mark if there is one, whose
    /// failures `failure` makes.
    package init(_ bytes: [UInt8], failure: @escaping @Sendable (_ reason: String, _ offset: Int) -> Failure) {
        self.bytes = bytes
        makeFailure = failure
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The next byte, `nil` at the end.
    package var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// `true` when every byte has been read.
    package var isAtEnd: Bool { index == bytes.count }

    /// The reader's error for `reason` at `offset`, by default where the scanner is.
    package func failure(_ reason: String, at offset: Int? = nil) -> Failure {
        makeFailure(reason, offset ?? index)
    }

    /// Moves past the current byte, which the caller has looked at.
    package mutating func advance() {
        index += 1
    }

    /// Moves past whitespace (section 2).
    package mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Moves past whitespace and `byte`, which is `what` in the failure when it is not there.
    package mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipWhitespace()
        guard current == byte else { throw failure("expected \(what)") }
        index += 1
    }

    /// Moves past `true`, `false` or `null` (section 3).
    package mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw failure("unexpected word, expected \(word)")
        }
        index += expected.count
    }

    /// A string (section 7), the scanner at its opening quote.
    package mutating func string() throws(Failure) -> String {
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
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
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
        default:
            throw failure("unknown escape \\\(Character(Unicode.Scalar(byte)))", at: index - 2)
        }
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw failure("\\u must be followed by four hex digits")
        }
        index += 4
        return value
    }

    /// The text of a number (section 6), the scanner at its first character: whether it is an
    /// integer (no fraction, no exponent) and where it starts. The reader decides its range.
    package mutating func number() throws(Failure) -> (text: String, isInteger: Bool, start: Int) {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw failure("a number needs digits", at: start) }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw failure("a number must not have leading zeros", at: start)
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            guard digits() > 0 else { throw failure("a fraction needs digits after \".\"", at: start) }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("an exponent needs digits", at: start) }
        }
        return (String(decoding: bytes[start..<index], as: UTF8.self), isInteger, start)
    }

    /// Moves past decimal digits; how many.
    private mutating func digits() -> Int {
        let first = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - first
    }
}
