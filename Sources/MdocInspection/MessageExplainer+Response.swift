import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocFiles
import MdocModel
import MdocText

extension MessageExplainer {
    /// DeviceResponse (ISO/IEC 18013-5 8.3.2.1.2.2): version, status, documents and document
    /// errors.
    static func deviceResponse(_ response: DeviceResponse) -> [Explanation] {
        var lines = [
            Explanation("Version", "\(response.version)"),
            Explanation("Status", "\(response.status)"),
        ]
        if let documents = response.documents {
            lines.append(Explanation("Documents", "\(documents.count)", children: documents.enumerated().map { index, document in
                Explanation("Document \(index)", "\(document.docType)", children: self.document(document))
            }))
        } else {
            lines.append(Explanation("Documents", "absent"))
        }
        if let errors = response.documentErrors {
            lines.append(Explanation("Document errors", children: errors.flatMap { error in
                error.errors.map { docType, code in Explanation("\(docType)", "\(code)") }
            }))
        }
        return lines + otherEntries(response.additionalEntries)
    }

    /// One Document: its doc type, issuer-signed and device-signed parts, and errors.
    static func document(_ document: Document) -> [Explanation] {
        var lines = [
            Explanation("DocType", "\(document.docType)"),
            Explanation("IssuerSigned", children: issuerSigned(document.issuerSigned, docType: document.docType)),
            Explanation("DeviceSigned", children: deviceSigned(document.deviceSigned)),
        ]
        if let errors = document.errors {
            lines.append(Explanation("Errors", children: errors.nameSpaces.map { nameSpace, elements in
                Explanation("Name space \(nameSpace)", children: elements.map { identifier, code in
                    Explanation("\(identifier)", "\(code)")
                })
            }))
        }
        return lines + otherEntries(document.additionalEntries)
    }

    /// IssuerSigned (8.3.2.1.2.2): every IssuerSignedItem per name space, and the IssuerAuth
    /// with its document signer certificate and the MSO it signs.
    static func issuerSigned(_ signed: IssuerSigned, docType: String?) -> [Explanation] {
        var lines: [Explanation] = []
        if let nameSpaces = signed.nameSpaces {
            for (nameSpace, items) in nameSpaces {
                lines.append(Explanation(
                    "Name space \(nameSpace)", "\(items.count) IssuerSignedItem\(items.count == 1 ? "" : "s")",
                    children: items.map { issuerSignedItem($0, nameSpace: nameSpace) }))
            }
        } else {
            lines.append(Explanation("Name spaces", "absent (no element disclosed)"))
        }
        lines.append(Explanation(
            "IssuerAuth", "COSE_Sign1 over MobileSecurityObjectBytes (9.1.2.4)",
            children: coseSign1(signed.issuerAuth, role: .documentSigner)))
        return lines + otherEntries(signed.additionalEntries)
    }

    /// One IssuerSignedItemBytes: the element, its value, digest ID and salt.
    static func issuerSignedItem(_ item: EmbeddedCBOR<IssuerSignedItem>, nameSpace: String) -> Explanation {
        let value = item.value
        let name = DataElementCatalogue.name(of: value.elementIdentifier, in: nameSpace)
        let label: TerminalText = name.map { "\(value.elementIdentifier) (\($0))" } ?? "\(value.elementIdentifier)"
        return Explanation(label, children: [
            elementValue("Value", value.elementValue),
            Explanation("Digest ID", "\(value.digestID)"),
            Explanation.bytes("Random", value.random),
            Explanation("IssuerSignedItemBytes", "\(item.bytes.count) bytes"),
        ] + otherEntries(value.additionalEntries))
    }

    /// DeviceSigned (8.3.2.1.2.2): the device-signed elements and DeviceAuth.
    static func deviceSigned(_ signed: DeviceSigned) -> [Explanation] {
        [
            Explanation("Name spaces", "DeviceNameSpacesBytes, \(signed.nameSpaces.bytes.count) bytes",
                        children: deviceNameSpaces(signed.nameSpaces.value)),
            Explanation("DeviceAuth", children: deviceAuth(signed.deviceAuth)),
        ] + otherEntries(signed.additionalEntries)
    }

    /// DeviceNameSpaces: name space → element → value.
    static func deviceNameSpaces(_ nameSpaces: DeviceNameSpaces) -> [Explanation] {
        guard !nameSpaces.nameSpaces.isEmpty else { return [Explanation("Elements", "none")] }
        return nameSpaces.nameSpaces.map { nameSpace, elements in
            Explanation("Name space \(nameSpace)", children: elements.map { identifier, value in
                let name = DataElementCatalogue.name(of: identifier, in: nameSpace)
                return elementValue(name.map { "\(identifier) (\($0))" } ?? "\(identifier)", value)
            })
        }
    }

    /// DeviceAuth (9.1.3): a DeviceSignature (COSE_Sign1 by the MSO device key) or a DeviceMac
    /// (COSE_Mac0 with EMacKey).
    static func deviceAuth(_ auth: DeviceAuth) -> [Explanation] {
        let note = Explanation(
            "Note", "it covers DeviceAuthenticationBytes of this session (9.1.3.4); check it with `mdoc-reader verify --transcript`")
        switch auth {
        case .deviceSignature(let signature):
            return [Explanation("DeviceSignature", "COSE_Sign1 by the MSO device key (9.1.3.6)", children: coseSign1(signature, role: nil) + [note])]
        case .deviceMac(let mac):
            return [Explanation("DeviceMac", "COSE_Mac0 with EMacKey (9.1.3.5)", children: coseMac0(mac) + [note])]
        }
    }

    /// The value of a data element, explained where its type is known: text, dates with their
    /// tag, images, driving privileges; other values in diagnostic notation.
    static func elementValue(_ label: TerminalText, _ value: CBOR) -> Explanation {
        switch value {
        case .textString(let text):
            return Explanation(label, "\"\(text)\"")
        case .tagged(CBOR.Tag.fullDateString, .textString(let text)):
            return Explanation(label, "\(text) (full-date, tag 1004)")
        case .tagged(CBOR.Tag.dateTimeString, .textString(let text)):
            return Explanation(label, "\(text) (tdate, tag 0)")
        case .byteString(let bytes):
            if let image = imageKind(bytes) {
                return Explanation(label, "\(image), \(bytes.count) bytes")
            }
            return Explanation.bytes(label, bytes)
        case .array where MessageKind(of: value) == .drivingPrivileges:
            return Explanation(label, children: drivingPrivileges(value))
        default:
            return diagnostic(label, value)
        }
    }

    /// The image format of `bytes` by its signature, or `nil`: JPEG (ISO/IEC 10918) and JPEG 2000
    /// (ISO/IEC 15444), the portrait formats of ISO/IEC 18013-5 7.2.2.
    static func imageKind(_ bytes: some Collection<UInt8>) -> String? {
        if bytes.starts(with: [0xff, 0xd8, 0xff]) { return "JPEG image" }
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50]) || bytes.starts(with: [0xff, 0x4f, 0xff, 0x51]) {
            return "JPEG 2000 image"
        }
        return nil
    }

    /// driving_privileges (ISO/IEC 18013-5 7.2.4): each privilege with its vehicle category,
    /// dates and codes.
    static func drivingPrivileges(_ item: CBOR) -> [Explanation] {
        guard let privileges = item.arrayValue else { return [diagnostic("Not driving privileges", item)] }
        return privileges.enumerated().map { index, privilege in
            guard let map = privilege.mapValue else { return diagnostic("Privilege \(index)", privilege) }
            let category = map[text: "vehicle_category_code"]?.textValue
            return Explanation("Privilege \(index)", category.map { "vehicle category \($0)" }, children: map.entries.compactMap { entry in
                switch entry.key.textValue {
                case "vehicle_category_code": return nil
                case "codes":
                    guard let codes = entry.value.arrayValue else { return diagnostic("Codes", entry.value) }
                    return Explanation("Codes", children: codes.map { code in
                        let fields = code.mapValue
                        let parts = ["code", "sign", "value"].compactMap { key in fields?[text: key]?.textValue.map { "\(key) \($0)" } }
                        return parts.isEmpty ? diagnostic("Code", code) : Explanation("Code", "\(parts.joined(separator: ", "))")
                    })
                default:
                    return elementValue("\(entry.key.textValue ?? entry.key.diagnosticNotation())", entry.value)
                }
            })
        }
    }

    /// A credential file of this toolkit: the doc type, any test-material note, the issuer
    /// data and the device key (its private part is never shown).
    static func credential(_ item: CBOR) -> [Explanation] {
        guard let map = item.mapValue else { return [diagnostic("Not a credential", item)] }
        var lines: [Explanation] = []
        for entry in map.entries {
            switch entry.key.textValue {
            case "docType":
                lines.append(Explanation("DocType", "\(entry.value.textValue ?? entry.value.diagnosticNotation())"))
            case "issuerSigned":
                lines.append(Explanation("IssuerSigned", children: decoding(entry.value, as: IssuerSigned.self) {
                    issuerSigned($0, docType: map[text: "docType"]?.textValue)
                }))
            case "deviceKey":
                lines.append(Explanation("Device key (SDeviceKey)", children: coseKey(entry.value)))
            case "testMaterial":
                let notes = entry.value.arrayValue?.compactMap(\.textValue) ?? []
                lines.append(Explanation("TEST MATERIAL", "made on purpose to fail verification", children: notes.map { Explanation("\($0)") }))
            default:
                lines.append(diagnostic("\(entry.key.diagnosticNotation())", entry.value))
            }
        }
        return lines
    }
}
