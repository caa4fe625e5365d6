/// JSON string literals (RFC 8259 section 7): how diagnostic notation writes text strings
/// (RFC 8949 section 8), and how the programs write JSON.
public enum JSONStringLiteral {
    /// `string` between double quotes, with quotes, backslashes and control characters escaped.
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
            case "\u{00}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
