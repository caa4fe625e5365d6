import ArgumentParser
import MdocCBOR
import MdocOnline
import MdocSession

/// `mdoc-reader verify --handover SPEC`: the Handover of an online presentation someone else
/// requested, from its parameters, so that the response is verified against the SessionTranscript
/// `[null, null, Handover]` they make.
///
/// `SPEC` is `PROTOCOL:NAME=VALUE,NAME=VALUE...`, one protocol of ``Kind`` with its
/// parameters; a value is percent-decoded (`%2C` for a comma, `%25` for `%`), so that a
/// `client_id` or `response_uri` holding a comma can be written. Every problem is a usage error
/// naming the field.
struct OnlineHandoverSpec {
    /// The protocols, each with its Handover.
    enum Kind: String, CaseIterable {
        /// OpenID4VP 1.0 over redirects (``OpenID4VPHandover``).
        case openID4VP = "openid4vp"
        /// OpenID4VP 1.0 over the Digital Credentials API (``OpenID4VPDCAPIHandover``).
        case openID4VPDCAPI = "openid4vp-dcapi"
        /// ISO/IEC TS 18013-7:2024 Annex B (``OID4VPHandover``).
        case isoOID4VP = "iso-oid4vp"
        /// ISO/IEC TS 18013-7 Annex C (``DCAPIHandover``).
        case dcapi

        /// The names of the required parameters, then of the optional ones.
        var parameters: (required: [String], optional: [String]) {
            switch self {
            case .openID4VP: return (["client_id", "nonce", "response_uri"], ["jwk_thumbprint"])
            case .openID4VPDCAPI: return (["origin", "nonce"], ["jwk_thumbprint"])
            case .isoOID4VP: return (["client_id", "response_uri", "nonce", "mdoc_generated_nonce"], [])
            case .dcapi: return (["origin", "encryption_info"], [])
            }
        }

        /// What it is, for the report.
        var title: String {
            switch self {
            case .openID4VP: return "OpenID4VP 1.0 (OpenID4VPHandover)"
            case .openID4VPDCAPI: return "OpenID4VP 1.0 over the Digital Credentials API (OpenID4VPDCAPIHandover)"
            case .isoOID4VP: return "ISO/IEC TS 18013-7:2024 Annex B (OID4VPHandover)"
            case .dcapi: return "ISO/IEC TS 18013-7 Annex C, org-iso-mdoc (dcapi Handover)"
            }
        }
    }

    /// The protocol.
    let kind: Kind
    /// The parameters, decoded, in the order given.
    let parameters: [(name: String, value: String)]
    /// The Handover they make.
    let handover: any OnlineHandover

    /// Reads `text`; every problem is a `ValidationError` naming the protocol or the field.
    init(_ text: String) throws(ValidationError) {
        let names = Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let colon = text.firstIndex(of: ":") else {
            throw ValidationError("--handover: no protocol before ':'; give one of \(names) (see 'mdoc-reader verify --help')")
        }
        guard let kind = Kind(rawValue: String(text[..<colon])) else {
            throw ValidationError("--handover: the protocol \"\(UntrustedText.escaped(text[..<colon]))\" is not one of \(names)")
        }
        var parameters: [(name: String, value: String)] = []
        for field in text[text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = field.firstIndex(of: "=") else {
                throw ValidationError("--handover \(kind.rawValue): the field \"\(UntrustedText.escaped(field))\" is not NAME=VALUE")
            }
            let name = String(field[..<equals])
            guard kind.parameters.required.contains(name) || kind.parameters.optional.contains(name) else {
                throw ValidationError(
                    "--handover \(kind.rawValue): no field \"\(UntrustedText.escaped(name))\"; it takes \((kind.parameters.required + kind.parameters.optional).joined(separator: ", "))")
            }
            guard !parameters.contains(where: { $0.name == name }) else {
                throw ValidationError("--handover \(kind.rawValue): \(name) is given twice")
            }
            guard let value = Self.percentDecoded(field[field.index(after: equals)...]) else {
                throw ValidationError("--handover \(kind.rawValue): \(name) has a % that is not followed by two hex digits of UTF-8 (write a % as %25)")
            }
            parameters.append((name, value))
        }
        for name in kind.parameters.required where !parameters.contains(where: { $0.name == name }) {
            throw ValidationError("--handover \(kind.rawValue): \(name) is missing; it needs \(kind.parameters.required.joined(separator: ", "))")
        }
        self.kind = kind
        self.parameters = parameters
        self.handover = try Self.handover(kind, parameters)
    }

    /// The SessionTranscript of the Handover.
    var sessionTranscript: SessionTranscriptBinding {
        SessionTranscriptBinding(handover.sessionTranscript)
    }

    private static func handover(_ kind: Kind, _ parameters: [(name: String, value: String)]) throws(ValidationError) -> any OnlineHandover {
        let value = { (name: String) in parameters.first { $0.name == name }?.value ?? "" }
        switch kind {
        case .openID4VP:
            return OpenID4VPHandover(
                clientID: value("client_id"), nonce: value("nonce"), jwkThumbprint: try thumbprint(kind, parameters),
                responseURI: value("response_uri"))
        case .openID4VPDCAPI:
            try checkOrigin(kind, value("origin"))
            return OpenID4VPDCAPIHandover(origin: value("origin"), nonce: value("nonce"), jwkThumbprint: try thumbprint(kind, parameters))
        case .isoOID4VP:
            return OID4VPHandover(
                clientID: value("client_id"), responseURI: value("response_uri"), nonce: value("nonce"),
                mdocGeneratedNonce: value("mdoc_generated_nonce"))
        case .dcapi:
            try checkOrigin(kind, value("origin"))
            do {
                _ = try EncryptionInfo(base64URL: value("encryption_info"))
            } catch {
                throw ValidationError("--handover dcapi: encryption_info: \(error.reason)")
            }
            return DCAPIHandover(encryptionInfo: value("encryption_info"), origin: value("origin"))
        }
    }

    /// `jwk_thumbprint`, base64url of the 32 bytes of an RFC 7638 SHA-256 thumbprint, or `nil`.
    private static func thumbprint(_ kind: Kind, _ parameters: [(name: String, value: String)]) throws(ValidationError) -> JWKThumbprint? {
        guard let text = parameters.first(where: { $0.name == "jwk_thumbprint" })?.value else { return nil }
        guard !text.contains("="), let bytes = Base64URL.decode(text) else {
            throw ValidationError("--handover \(kind.rawValue): jwk_thumbprint is not base64url without padding")
        }
        do {
            return try JWKThumbprint(bytes: bytes)
        } catch {
            throw ValidationError("--handover \(kind.rawValue): jwk_thumbprint: \(error.reason)")
        }
    }

    private static func checkOrigin(_ kind: Kind, _ origin: String) throws(ValidationError) {
        do {
            try DCAPIRequest.checkOrigin(origin)
        } catch {
            throw ValidationError("--handover \(kind.rawValue): origin: \(error.reason)")
        }
    }

    /// `text` with each `%XX` replaced by the byte it names, as UTF-8; `nil` for a `%` not
    /// followed by two hex digits, or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let decoded = Hex.decode(String(decoding: utf8.prefix(2), as: UTF8.self)) else { return nil }
            bytes += decoded
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
