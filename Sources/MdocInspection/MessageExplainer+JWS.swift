import MdocCBOR
import MdocCOSE
import MdocModel
import MdocText

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MessageExplainer {
    /// A JWS of server retrieval (ISO/IEC 18013-5 8.3.2.2): the header with its algorithm and
    /// `x5c` certificates (the JWS signer of Annex B, extended key usage 1.0.18013.5.1.3), the
    /// payload JSON and the signature.
    static func jws(_ jws: JWSCompact) -> [Explanation] {
        var header: [Explanation] = []
        if case .object(let members) = jws.header {
            for (name, value) in members {
                if name == "x5c", case .array(let items) = value {
                    header.append(Explanation("x5c", "\(items.count) certificate\(items.count == 1 ? "" : "s")", children: x5c(items)))
                } else if case .string(let text) = value {
                    header.append(Explanation("\(name)", "\(text)"))
                } else {
                    header.append(json("\(name)", value))
                }
            }
        }
        var lines = [Explanation("Protected header", children: header)]
        if let payload = jws.payload {
            lines.append(serverRetrievalPayload(payload) ?? json("Payload (JSON)", payload))
        } else {
            lines.append(Explanation.bytes("Payload, not JSON", jws.payloadBytes))
        }
        let algorithm: COSEAlgorithm? = if case .string(let name) = jws.headerParameter("alg") {
            ["ES256": .es256, "ES384": .es384, "ES512": .es512, "EdDSA": .edDSA][name]
        } else {
            nil
        }
        lines.append(signature(jws.signature, algorithm: algorithm))
        return lines
    }

    /// The payload of a server retrieval JWS (ISO/IEC 18013-5 8.3.2.2.2): the doc type, the
    /// elements per name space (a base64url portrait named as the image it is), and the times it
    /// was issued and expires. `nil` when the payload is not one.
    static func serverRetrievalPayload(_ payload: JSONValue) -> Explanation? {
        guard case .object(let members) = payload, members.contains(where: { $0.0 == "namespaces" }) else { return nil }
        var lines: [Explanation] = []
        for (name, value) in members {
            switch (name, value) {
            case ("doctype", .string(let docType)):
                lines.append(Explanation("DocType", "\(docType)"))
            case ("namespaces", .object(let nameSpaces)):
                lines += nameSpaces.map { nameSpace, elements in
                    guard case .object(let items) = elements else { return json("Name space \(nameSpace)", elements) }
                    return Explanation("Name space \(nameSpace)", children: items.map { identifier, element in
                        let displayName = DataElementCatalogue.name(of: identifier, in: nameSpace)
                        let label: TerminalText = displayName.map { "\(identifier) (\($0))" } ?? "\(identifier)"
                        if case .string(let text) = element, let bytes = Base64URL.decode(text), let image = imageKind(bytes) {
                            return Explanation(label, "\(image), \(bytes.count) bytes (base64url)")
                        }
                        if case .string(let text) = element { return Explanation(label, "\"\(text)\"") }
                        return json(label, element)
                    })
                }
            case ("iat", .int(let seconds)), ("exp", .int(let seconds)):
                let date = TDate(Date(timeIntervalSince1970: Double(seconds))).text
                lines.append(Explanation(name == "iat" ? "Issued at (iat)" : "Expires (exp)", "\(date) (\(seconds))"))
            default:
                lines.append(json("\(name)", value))
            }
        }
        return Explanation("Payload", "server retrieval response (8.3.2.2.2)", children: lines)
    }

    /// The certificates of an `x5c` header (RFC 7515 section 4.1.6: base64, not base64url, DER),
    /// the first the signer's, each checked against the next as its issuer.
    static func x5c(_ items: [JSONValue]) -> [Explanation] {
        let ders: [[UInt8]?] = items.map { item in
            guard case .string(let text) = item else { return nil }
            return Base64URL.decode(String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
        }
        let chain: [[UInt8]] = ders.compactMap { $0 }
        guard chain.count == ders.count else {
            return [Explanation("Not base64 certificates", "\(items.count) entries")]
        }
        return x5chain(chain, role: nil)
    }

    /// JSON text, one line per line of its pretty form.
    static func json(_ label: TerminalText, _ value: JSONValue) -> Explanation {
        let lines = value.serialized(pretty: true).split(separator: "\n")
        guard lines.count > 1 else { return Explanation(label, TerminalText(lines: lines.first ?? "")) }
        return Explanation(label, children: lines.map { Explanation(TerminalText(lines: $0)) })
    }
}
