import MdocCBOR
import MdocText

/// The `application/x-www-form-urlencoded` body of an OpenID4VP `direct_post` response (section
/// 8.2), as the URL Standard (section 5) writes and reads it: `name=value` pairs joined by `&`,
/// each percent-encoded in UTF-8 with a space as `+`.
enum FormEncoding {
    /// The pairs of `body`, in order. Throws `.malformedResponse` for a `%` not followed by two
    /// hex digits, text that is not UTF-8, or a name given twice.
    static func decode(_ body: [UInt8]) throws(OnlineError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for field in body.split(separator: UInt8(ascii: "&")) {
            let parts = field.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try percentDecoded(Array(parts[0]))
            let value = try percentDecoded(parts.count > 1 ? Array(parts[1]) : [])
            guard !pairs.contains(where: { $0.name == name }) else {
                throw OnlineError(.malformedResponse, "the response form has \"\(UntrustedText.escaped(name))\" twice")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `pairs` as a form body.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\(percentEncoded($0.name))=\(percentEncoded($0.value))" }.joined(separator: "&")
    }

    /// `text` with every byte but ASCII letters, digits, `*`, `-`, `.` and `_` percent-encoded,
    /// and a space as `+` (the `application/x-www-form-urlencoded` percent-encode set).
    private static func percentEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.append(byte)
            case UInt8(ascii: " "):
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func percentDecoded(_ bytes: [UInt8]) throws(OnlineError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw OnlineError(.malformedResponse, "the response form has a % not followed by two hex digits")
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw OnlineError(.malformedResponse, "the response form holds text that is not UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
