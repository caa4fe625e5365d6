import MdocCBOR

/// What an input holds, as far as a program given the wrong file needs to say: what the file is
/// (JSON, PEM, text, DER, an ISO/IEC 18013-5 message by its shape, ``MessageKind``) so that the
/// program can name it and what to run instead, rather than how its decoder failed.
public enum InputKind: Sendable, Equatable, CustomStringConvertible {
    /// JSON issuer data, the `--data` of `mdoc-issuer issue` (it has `nameSpaces`).
    case issuerData
    /// JSON with `rules` or `default`: a consent policy, perhaps.
    case consentPolicy
    /// Other JSON text.
    case json
    /// A PEM private key.
    case pemPrivateKey
    /// A PEM certificate.
    case pemCertificate
    /// Other PEM text.
    case pem
    /// UTF-8 text that is none of the above, and not hex, base64url or an `mdoc:` URI (those are
    /// decoded when read, ``InputSource``).
    case text
    /// One DER SEQUENCE over the whole input (ITU-T X.690 8.9): an X.509 certificate or a key.
    case der
    /// A SessionEstablishment or a SessionData whose `data` is encrypted (9.1.1.4): only the
    /// session's keys open it.
    case encrypted(MessageKind)
    /// Another message ``MessageKind`` recognises, or a credential file.
    case message(MessageKind)
    /// CBOR of no kind ``MessageKind`` recognises.
    case cbor
    /// None of these.
    case unknown

    /// The kind of `input`.
    public init(of input: InputSource) {
        let text = String(decoding: input.bytes.prefix(4096), as: UTF8.self).trimmingASCIIWhitespace()
        if input.encoding == .binary, text.hasPrefix("{") || text.hasPrefix("[") {
            if text.contains("\"nameSpaces\"") {
                self = .issuerData
            } else if text.contains("\"rules\"") || text.contains("\"default\"") {
                self = .consentPolicy
            } else {
                self = .json
            }
            return
        }
        if input.encoding == .binary, text.hasPrefix("-----BEGIN") {
            self = text.contains("PRIVATE KEY-----") ? .pemPrivateKey : text.contains("CERTIFICATE-----") ? .pemCertificate : .pem
            return
        }
        guard let item = try? CBOR.decode(input.bytes) else {
            if input.encoding == .binary, Self.isText(input.bytes) {
                self = .text
            } else {
                self = Self.isDERSequence(input.bytes) ? .der : .unknown
            }
            return
        }
        guard let kind = MessageKind(of: item) else {
            self = .cbor
            return
        }
        let sealed = kind == .sessionEstablishment || kind == .sessionData && item.mapValue?[text: "data"] != nil
        self = sealed ? .encrypted(kind) : .message(kind)
    }

    /// What the input is, with its article where it takes one: "a PEM certificate", "JSON text",
    /// "an encrypted SessionData (18013-5 9.1.1.4)".
    public var description: String {
        switch self {
        case .issuerData: return "JSON issuer data (the --data of `mdoc-issuer issue`)"
        case .consentPolicy: return "JSON, a consent policy perhaps (the --policy of `mdoc-holder present`)"
        case .json: return "JSON text"
        case .pemPrivateKey: return "a PEM private key"
        case .pemCertificate: return "a PEM certificate"
        case .pem: return "PEM text"
        case .text: return "text"
        case .der: return "DER, an X.509 certificate or key perhaps"
        case .encrypted(let kind): return "an encrypted \(kind.rawValue)"
        case .message(let kind): return "a \(kind.rawValue)"
        case .cbor: return "CBOR of no ISO/IEC 18013-5 kind"
        case .unknown: return "neither CBOR nor text"
        }
    }

    /// Whether `bytes` are UTF-8 with no control characters but tab, line feed and carriage return.
    private static func isText(_ bytes: [UInt8]) -> Bool {
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control || "\t\n\r".unicodeScalars.contains($0) }
    }

    /// Whether `bytes` are one DER SEQUENCE (tag 0x30) whose definite length covers exactly the
    /// rest of them (ITU-T X.690 8.1.3).
    private static func isDERSequence(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        guard first & 0x80 != 0 else { return 2 + first == bytes.count }
        let count = first & 0x7f
        guard (1...4).contains(count), bytes.count >= 2 + count else { return false }
        let length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return 2 + count + length == bytes.count
    }
}
