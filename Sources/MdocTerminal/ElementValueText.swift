import MdocCBOR
import MdocText

/// A short, readable rendering of a data element value for report tables: text as quoted text,
/// tdate and full-date as their text, images named by type and size, other byte strings as
/// abbreviated hex, and structures as compact diagnostic notation cut at a width. Text is
/// escaped (``TerminalText``): the value is the peer's choice.
package enum ElementValueText {
    /// The widest rendering of a structured value before it is cut with "...".
    package static let maximumWidth = 96

    /// The readable text of `value`.
    package static func render(_ value: CBOR) -> TerminalText {
        switch value {
        case .textString(let text):
            return "\"\(text)\""
        case .tagged(CBOR.Tag.dateTimeString, .textString(let text)), .tagged(CBOR.Tag.fullDateString, .textString(let text)):
            return "\(text)"
        case .byteString(let bytes):
            if bytes.starts(with: [0xff, 0xd8, 0xff]) { return "JPEG image, \(bytes.count) bytes" }
            if bytes.starts(with: [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50]) || bytes.starts(with: [0xff, 0x4f, 0xff, 0x51]) {
                return "JPEG 2000 image, \(bytes.count) bytes"
            }
            if bytes.count <= 16 { return "h'\(Hex.encode(bytes))'" }
            return "h'\(Hex.encode(bytes.prefix(16)))...' (\(bytes.count) bytes)"
        default:
            let text = value.diagnosticNotation(byteStringPrefixLength: 16)
            guard text.count > maximumWidth else { return "\(text)" }
            return "\(text.prefix(maximumWidth - 3))..."
        }
    }
}
