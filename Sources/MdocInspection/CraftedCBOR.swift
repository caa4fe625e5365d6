import MdocCBOR
import MdocFiles

/// One CBOR data item a person wrote to encode or to send (`mdoc encode`, `mdoc-reader request
/// --request`): its bytes, exactly as the input gives them or as its notation describes them, and
/// the form it was written in (docs/crafted-sessions.md).
///
/// The bytes are not checked against any structure, and binary, hex or base64url input is not
/// even required to be well-formed CBOR: a conformance tester sends what a peer must refuse.
public struct CraftedCBOR: Sendable {
    /// How the item was written.
    public enum Form: String, Sendable, CaseIterable {
        /// The JSON of `mdoc inspect --json` (docs/inspect-json.md), read by ``LosslessJSONParser``.
        case json = "lossless JSON"
        /// Diagnostic notation (RFC 8949 section 8), read by `CBORDiagnosticParser`.
        case diagnostic = "diagnostic notation"
        /// The bytes themselves.
        case binary
        /// Hex text of the bytes.
        case hex
        /// base64url text of the bytes (RFC 4648 section 5).
        case base64url
    }

    /// The encoded item.
    public let bytes: [UInt8]
    /// How it was written.
    public let form: Form

    /// The item `raw` holds, read from the file or stream `name`, as `form` when given.
    ///
    /// Without a form the input decides: bytes that are not UTF-8 text (or hold control
    /// characters other than tabs and line ends) are binary; text of hex digits alone, in pairs,
    /// is hex (a message's hex often begins with digits: `8201...`); text that is JSON is
    /// lossless JSON; other text is diagnostic notation, else base64url. Diagnostic notation that
    /// is also JSON (`{"1": 2}`, whose key JSON reads as the integer 1) or hex (an integer of an
    /// even number of digits) therefore needs the form given.
    ///
    /// - Throws: `InputError` naming `name`: `empty` for no item, `tooLarge` above
    ///   `InputSource/maximumInputSize`, `badEncoding` for text that is none of the
    ///   forms, with the line and column where the notation it was read as failed.
    public init(_ raw: [UInt8], name: String, form: Form? = nil) throws(InputError) {
        guard raw.count <= InputSource.maximumInputSize else {
            throw InputError(.tooLarge, source: name, "larger than the \(InputSource.maximumInputSize)-byte input limit")
        }
        guard raw.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw InputError(.empty, source: name, "the input holds no data item")
        }
        if form == .hex || form == .base64url {
            let text = String(decoding: raw, as: UTF8.self).trimmingASCIIWhitespace()
            guard let bytes = form == .hex ? Hex.decode(text) : Base64URL.decode(text), !bytes.isEmpty else {
                throw InputError(.badEncoding, source: name, "the input is not \(form?.rawValue ?? "") text")
            }
            self.init(bytes: bytes, form: form ?? .hex)
            return
        }
        do throws(CBORTextError) {
            switch form {
            case .json: self.init(bytes: try LosslessJSONParser.decode(raw).encoded(), form: .json)
            case .diagnostic: self.init(bytes: try CBORDiagnosticParser.encode(raw), form: .diagnostic)
            case .binary: self.init(bytes: raw, form: .binary)
            case nil, .hex, .base64url: self = try Self.detect(raw)
            }
        } catch {
            throw InputError(.badEncoding, source: name, "\(error)")
        }
    }

    private init(bytes: [UInt8], form: Form) {
        self.bytes = bytes
        self.form = form
    }

    /// The form `raw` is in, and its bytes; the error is the diagnostic notation's when no form fits.
    private static func detect(_ raw: [UInt8]) throws(CBORTextError) -> CraftedCBOR {
        guard !raw.contains(where: { ($0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0)) || $0 == 0x7F }),
            let text = String(validating: raw, as: UTF8.self)
        else {
            return CraftedCBOR(bytes: raw, form: .binary)
        }
        let trimmed = text.trimmingASCIIWhitespace()
        if trimmed.utf8.allSatisfy({ Self.isHexOrSpace($0) }), let bytes = Hex.decode(trimmed), !bytes.isEmpty {
            return CraftedCBOR(bytes: bytes, form: .hex)
        }
        if let item = try? LosslessJSONParser.decode(raw) {
            return CraftedCBOR(bytes: item.encoded(), form: .json)
        }
        do {
            return CraftedCBOR(bytes: try CBORDiagnosticParser.encode(raw), form: .diagnostic)
        } catch {
            if let bytes = Base64URL.decode(trimmed), !bytes.isEmpty {
                return CraftedCBOR(bytes: bytes, form: .base64url)
            }
            throw error
        }
    }

    private static func isHexOrSpace(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            0x20, 0x09, 0x0A, 0x0D:
            return true
        default:
            return false
        }
    }
}
