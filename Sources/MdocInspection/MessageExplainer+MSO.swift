import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocText

extension MessageExplainer {
    /// MobileSecurityObject (ISO/IEC 18013-5 9.1.2.4): what the issuer signed.
    static func mobileSecurityObject(_ mso: MobileSecurityObject) -> [Explanation] {
        var lines = [
            Explanation("Version", "\(mso.version)"),
            Explanation("Digest algorithm", "\(mso.digestAlgorithm)"),
            Explanation("DocType", "\(mso.docType)"),
            validityInfo(mso.validityInfo),
            Explanation("Device key info", children: deviceKeyInfo(mso.deviceKeyInfo)),
            Explanation("Value digests", children: mso.valueDigests.map { nameSpace, digests in
                Explanation("Name space \(nameSpace)", "\(digests.count) digest\(digests.count == 1 ? "" : "s")", children: digests.map { digestID, digest in
                    Explanation.bytes("Digest ID \(digestID)", digest)
                })
            }),
        ]
        var others = mso.additionalEntries
        if let status = others[text: "status"] {
            lines.append(msoStatus(status))
            others = CBORMap(others.entries.filter { $0.key.textValue != "status" })
        }
        return lines + otherEntries(others)
    }

    /// ValidityInfo: when the MSO was signed and the period it is valid.
    static func validityInfo(_ info: ValidityInfo) -> Explanation {
        var lines = [
            Explanation("Signed", "\(info.signed.text)"),
            Explanation("Valid from", "\(info.validFrom.text)"),
            Explanation("Valid until", "\(info.validUntil.text)"),
        ]
        if let update = info.expectedUpdate {
            lines.append(Explanation("Expected update", "\(update.text)"))
        }
        return Explanation("Validity info", children: lines + otherEntries(info.additionalEntries))
    }

    /// DeviceKeyInfo: the device key as a COSE_Key, its KeyAuthorizations and KeyInfo.
    static func deviceKeyInfo(_ info: DeviceKeyInfo) -> [Explanation] {
        var lines = [Explanation("Device key", children: coseKey(info.deviceKey.cbor))]
        if let authorizations = info.keyAuthorizations {
            var children: [Explanation] = []
            if let nameSpaces = authorizations.nameSpaces {
                children.append(Explanation("Whole name spaces", "\(nameSpaces.joined(separator: ", "))"))
            }
            if let elements = authorizations.dataElements {
                children += elements.map { nameSpace, identifiers in
                    Explanation("Elements of \(nameSpace)", "\(identifiers.joined(separator: ", "))")
                }
            }
            lines.append(Explanation(
                "Key authorizations", "what the device key may sign in DeviceSigned",
                children: children + otherEntries(authorizations.additionalEntries)))
        } else {
            lines.append(Explanation("Key authorizations", "absent: the device key may sign no element"))
        }
        if let keyInfo = info.keyInfo {
            lines.append(Explanation("Key info", children: keyInfo.entries.map { diagnostic("\($0.key.diagnosticNotation())", $0.value) }))
        }
        return lines + otherEntries(info.additionalEntries)
    }

    /// The MSO `status` of later editions of ISO/IEC 18013-5: where a reader finds whether the
    /// document is revoked, as a status list (index and URI) or an identifier list (ID and URI).
    static func msoStatus(_ status: CBOR) -> Explanation {
        guard let map = status.mapValue else { return diagnostic("Status", status) }
        return Explanation("Status", "where to check revocation", children: map.entries.map { entry in
            guard let name = entry.key.textValue, let fields = entry.value.mapValue else {
                return diagnostic("\(entry.key.diagnosticNotation())", entry.value)
            }
            return Explanation("\(name)", children: fields.entries.map { field in
                switch (field.key.textValue, field.value) {
                case (let key?, .byteString(let bytes)): return Explanation.bytes("\(key)", bytes)
                case (let key?, .textString(let text)): return Explanation("\(key)", "\(text)")
                default: return diagnostic("\(field.key.textValue ?? field.key.diagnosticNotation())", field.value)
                }
            })
        })
    }
}
