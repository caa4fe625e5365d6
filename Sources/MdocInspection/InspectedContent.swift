import MdocCBOR
import MdocCrypto
import MdocFiles
import MdocModel
import MdocText

/// What `mdoc inspect` found in its input: CBOR (every 18013-5 message, and this toolkit's
/// credential files), or one of the other encodings 18013-5 exchanges: X.509 certificates (DER
/// or PEM: the IACA, document signer and reader certificates of Annex B), an NDEF message (the
/// Handover Select and Request messages of NFC engagement, 8.2.2.1), a JWS in compact
/// serialization (server retrieval, 8.3.2.2), or a portrait image.
///
/// The content is recognised, never declared: CBOR first, since that is what almost every input
/// is, then the others, each only when it parses completely.
public enum InspectedContent: Sendable {
    /// A CBOR data item.
    case cbor(CBOR)
    /// X.509 certificates: one DER certificate, or the CERTIFICATE blocks of a PEM text.
    case certificates([Certificate])
    /// An NDEF message.
    case ndef(NDEFMessage)
    /// A JWS in compact serialization (RFC 7515 section 7.1).
    case jws(JWSCompact)
    /// An image in a format 18013-5 uses for portraits (JPEG or JPEG 2000, 7.2.2), by its
    /// signature; the image itself is not decoded.
    case image(format: String, byteCount: Int)

    /// The largest input recognised as something other than CBOR: a JWS of server retrieval with
    /// a portrait is some tens of kilobytes; 1 MiB bounds the text the JSON reader goes through.
    public static let maximumTextInputSize = 1024 * 1024

    /// Recognises the content of `source`, a private key in it replaced as
    /// ``init(_:showingPrivateKeys:)`` replaces it by default.
    public init(_ source: InputSource) throws(InputError) {
        try self.init(source, showingPrivateKeys: false)
    }

    /// Recognises the content of `source`. Throws `InputError.Code.unsupportedContent` naming
    /// the CBOR error when the bytes are none of the kinds above.
    ///
    /// A private key in CBOR (a credential file's device key, any COSE_Key with `d`) is replaced
    /// by `CBOR.redactedPrivateKey` (`CBOR.redactingPrivateKeys()`) unless
    /// `showingPrivateKeys`, so that no way of printing the content shows it by accident.
    public init(_ source: InputSource, showingPrivateKeys: Bool) throws(InputError) {
        let cborError: CBORError
        do {
            let item = try CBOR.decode(source.bytes)
            self = .cbor(showingPrivateKeys ? item : item.redactingPrivateKeys())
            return
        } catch {
            cborError = error
        }
        if let certificate = try? Certificate(derEncoded: source.bytes) {
            self = .certificates([certificate])
            return
        }
        if let format = MessageExplainer.imageKind(source.bytes) {
            self = .image(format: format, byteCount: source.bytes.count)
            return
        }
        if let message = try? NDEFMessage(bytes: source.bytes) {
            self = .ndef(message)
            return
        }
        if source.bytes.count <= Self.maximumTextInputSize, let text = Self.text(source.bytes) {
            if text.hasPrefix("-----BEGIN"), let certificates = try? Certificate.certificates(pemEncoded: text), !certificates.isEmpty {
                self = .certificates(certificates)
                return
            }
            if let jws = JWSCompact(text) {
                self = .jws(jws)
                return
            }
        }
        throw InputError(
            .unsupportedContent, source: source.name,
            "not well-formed CBOR: \(cborError); nor an X.509 certificate, an NDEF message, a JWS or an image")
    }

    /// The explanation of the content (``MessageExplainer``), headed by what it is.
    public var explanation: Explanation {
        switch self {
        case .cbor(let item):
            return MessageExplainer.explain(item)
        case .certificates(let certificates):
            guard certificates.count > 1 else {
                return Explanation("X.509 certificate (RFC 5280)", children: certificates.first.map {
                    MessageExplainer.certificate($0, role: nil, issuer: nil)
                } ?? [])
            }
            return Explanation("X.509 certificates (RFC 5280)", "\(certificates.count)", children: certificates.enumerated().map { index, certificate in
                let issuer = certificates.first { $0.subject == certificate.issuer && $0 != certificate }
                return Explanation(
                    "Certificate \(index)", "\(certificate.derRepresentation.count) bytes",
                    children: MessageExplainer.certificate(certificate, role: nil, issuer: issuer))
            })
        case .ndef(let message):
            return Explanation("NDEF message (NFC Forum NDEF 1.0; 18013-5 8.2.2.1)", children: MessageExplainer.ndefMessage(message, depth: 0))
        case .image(let format, let byteCount):
            return Explanation("\(format)", children: [
                Explanation("Size", "\(byteCount) bytes"),
                Explanation("Note", "a portrait format of ISO/IEC 18013-5 7.2.2; the image is not decoded"),
            ])
        case .jws(let jws):
            return Explanation("JWS, compact serialization (RFC 7515; 18013-5 8.3.2.2 server retrieval)", children: MessageExplainer.jws(jws))
        }
    }

    /// The bytes as text when they are printable ASCII or whitespace.
    private static func text(_ bytes: [UInt8]) -> String? {
        guard bytes.allSatisfy({ (0x20...0x7e).contains($0) || $0 == 0x0a || $0 == 0x0d || $0 == 0x09 }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
