import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocSession
import MdocTerminal
import MdocText

/// What `mdoc-holder list` and `show` tell about a credential: its doc type, issuer (the
/// document signer of the MSO's x5chain, ISO/IEC 18013-5 9.1.2.4), validity and elements.
/// Everything in it came from the file, so it is shown escaped (``TerminalText``).
struct CredentialSummary {
    let name: String
    let path: String
    let credential: Credential

    /// The document signer's subject, when the IssuerAuth's x5chain holds a certificate.
    var issuer: String? {
        guard let der = credential.issuerSigned.issuerAuth.x5chain.first else { return nil }
        return (try? Certificate(derEncoded: der)).map { "\($0.subject)" }
    }

    var validity: ValidityInfo { credential.mobileSecurityObject.value.validityInfo }

    var elementCount: Int { credential.elementIdentifiers.values.reduce(0) { $0 + $1.count } }

    /// One line of `list`.
    func line(nameWidth: Int, docTypeWidth: Int) -> TerminalText {
        TerminalText(escaping: name).padded(to: nameWidth) + "  " + TerminalText(escaping: credential.docType).padded(to: docTypeWidth)
            + "  \(TerminalText(count: elementCount, "element")), valid until \(validity.validUntil.text)"
            + (credential.testMaterial.isEmpty ? "" : ", TEST MATERIAL")
    }

    /// The text of `show`: everything but the device key's private half.
    var details: TerminalText {
        var out: TerminalText = "\(name) (\(path))\n"
        out += "  docType:     \(credential.docType)\n"
        out += "  Issuer:      \(issuer ?? "no certificate in the IssuerAuth")\n"
        out += "  Valid:       \(validity.validFrom.text) to \(validity.validUntil.text), signed \(validity.signed.text)\n"
        let storage = credential.deviceKeyReference.map { ", held by \($0)" } ?? (credential.sealedDeviceKey == nil ? "" : ", sealed with a passphrase")
        out += "  Device key:  \(credential.deviceKey.curve)\(storage)\n"
        if !credential.testMaterial.isEmpty {
            out += "  TEST MATERIAL, made to fail verification:\n"
            for note in credential.testMaterial {
                out += "    - \(note)\n"
            }
        }
        for (nameSpace, items) in credential.issuerSigned.nameSpaces ?? OrderedMap() {
            out += "  Elements in \(nameSpace):\n"
            for item in items {
                let identifier = item.value.elementIdentifier
                let readable = DataElementCatalogue.displayName(of: identifier, in: nameSpace)
                out += "    \(TerminalText(escaping: identifier).padded(to: 22)) \(TerminalText(escaping: readable).padded(to: 26)) \(ElementValueText.render(item.value.elementValue))\n"
            }
        }
        return out
    }

    /// The JSON of `list` (without the values) or `show` (`values`).
    func json(values: Bool) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)),
            ("path", .string(path)),
            ("docType", .string(credential.docType)),
            ("issuer", issuer.map(JSONValue.string) ?? .null),
            ("validFrom", .string(validity.validFrom.text)),
            ("validUntil", .string(validity.validUntil.text)),
            ("signed", .string(validity.signed.text)),
            ("deviceKeyCurve", .string("\(credential.deviceKey.curve)")),
            ("testMaterial", .array(credential.testMaterial.map(JSONValue.string))),
        ]
        if values {
            var nameSpaces: [(String, JSONValue)] = []
            for (nameSpace, items) in credential.issuerSigned.nameSpaces ?? OrderedMap() {
                nameSpaces.append((nameSpace, .object(items.map {
                    ($0.value.elementIdentifier, $0.value.elementValue.jsonValue(expandEmbedded: true))
                })))
            }
            members.append(("nameSpaces", .object(nameSpaces)))
        } else {
            members.append(("elements", .object(credential.elementIdentifiers.map { ($0.key, .array($0.value.map(JSONValue.string))) })))
        }
        return members
    }
}
