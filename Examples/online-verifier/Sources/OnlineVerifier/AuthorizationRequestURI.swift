import MdocOnline
import MdocText

/// An OpenID4VP 1.0 Authorization Request passed by value in a URL (section 5): the
/// `openid4vp://` scheme (section 13.1.2) with each member of the request as a query parameter,
/// an object or array member as its JSON text, for a QR code on another device or a link on
/// this one.
enum AuthorizationRequestURI {
    /// The scheme and authority the wallet registers for (section 13.1.2).
    static let base = "openid4vp://"

    /// `request` as an `openid4vp://?...` URL.
    static func make(_ request: OpenID4VPRequest) -> String {
        guard case .object(let members) = request.json else { return base }
        let parameters = members.map { name, value in
            let text: String
            if case .string(let string) = value {
                text = string
            } else {
                text = value.serialized()
            }
            return "\(percentEncoded(name))=\(percentEncoded(text))"
        }
        return base + "?" + parameters.joined(separator: "&")
    }

    /// `text` with every byte but the URI's unreserved characters (RFC 3986 2.3)
    /// percent-encoded.
    private static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append(contentsOf: ["%", digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }
        }
        return encoded
    }
}
