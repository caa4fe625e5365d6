/// JSON string literals (RFC 8259 section 7): how diagnostic notation writes text strings
/// (RFC 8949 section 8), and how the programs write JSON.
public enum JSONStringLiteral {
    /// `string` between double quotes, with quotes, backslashes and control characters escaped,
    /// and every other scalar that ``UntrustedText/mustEscape(_:)`` (C1 controls, format
    /// characters, U+2028 and U+2029) written as `\uXXXX` too, as a UTF-16 surrogate pair above
    /// U+FFFF (RFC 8259 section 7): the literal means the same text, and shown on a terminal it
    /// cannot act on it.
    public static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where UntrustedText.mustEscape(scalar):
                for unit in scalar.utf16 {
                    let hex = String(unit, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
