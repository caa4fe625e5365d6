import MdocCBOR
import MdocCOSE
import MdocCrypto
import MdocModel
import MdocText

extension MessageExplainer {
    /// The length of the AES-256-GCM authentication tag at the end of every encrypted message
    /// (ISO/IEC 18013-5 9.1.1.5: a 128-bit tag).
    static let gcmTagByteCount = 16

    /// SessionEstablishment (ISO/IEC 18013-5 9.1.1.4): the reader's ephemeral key, and what can
    /// be said about the encrypted DeviceRequest without the session keys.
    static func sessionEstablishment(_ establishment: SessionEstablishment) -> [Explanation] {
        [
            Explanation("EReaderKey", "EReaderKeyBytes, \(establishment.eReaderKey.bytes.count) bytes",
                        children: coseKey(establishment.eReaderKey.value.cbor)),
            ciphertext(
                "Data", establishment.data, holds: "the DeviceRequest", key: "SKReader, the reader's message counter 1 (9.1.1.5)"),
        ] + otherEntries(establishment.additionalEntries)
    }

    /// SessionData (ISO/IEC 18013-5 9.1.1.4): encrypted data, a status, or both.
    static func sessionData(_ data: SessionData) -> [Explanation] {
        var lines: [Explanation] = []
        if let bytes = data.data {
            lines.append(ciphertext("Data", bytes, holds: "a DeviceRequest (from the reader) or a DeviceResponse (from the mdoc)", key: nil))
        } else {
            lines.append(Explanation("Data", "absent"))
        }
        if let status = data.status {
            lines.append(Explanation("Status", "\(status)", children: [Explanation("Meaning", statusMeaning(status))]))
        } else {
            lines.append(Explanation("Status", "absent"))
        }
        return lines + otherEntries(data.additionalEntries)
    }

    /// What a SessionData status tells the other side (ISO/IEC 18013-5 9.1.1.4, Table 20).
    static func statusMeaning(_ status: SessionData.Status) -> TerminalText {
        switch status.rawValue {
        case 10: return "the session ends: a message could not be decrypted"
        case 11: return "the session ends: a message could not be decoded as CBOR"
        case 20: return "the session ends normally"
        default: return "not defined by ISO/IEC 18013-5:2021"
        }
    }

    /// An AES-256-GCM message (ISO/IEC 18013-5 9.1.1.5): its sizes and tag; the content needs
    /// the session keys.
    static func ciphertext(_ label: TerminalText, _ bytes: [UInt8], holds content: TerminalText, key: TerminalText?) -> Explanation {
        guard bytes.count >= gcmTagByteCount else {
            return Explanation(label, "\(bytes.count) bytes: shorter than the \(gcmTagByteCount)-byte AES-GCM tag, so it cannot decrypt")
        }
        var lines = [
            Explanation("Encrypted content", "\(bytes.count - gcmTagByteCount) bytes: " + content),
            Explanation.bytes("GCM tag", Array(bytes.suffix(gcmTagByteCount))),
        ]
        if let key {
            lines.append(Explanation("Encrypted with", key))
        }
        lines.append(Explanation("Note", "decrypting needs the session keys, which only the two parties of the session hold"))
        return Explanation(label, "\(bytes.count) bytes, AES-256-GCM", children: lines)
    }

    /// DeviceAuthentication (ISO/IEC 18013-5 9.1.3.4):
    /// `["DeviceAuthentication", SessionTranscript, DocType, DeviceNameSpacesBytes]`.
    static func deviceAuthentication(_ item: CBOR) -> [Explanation] {
        guard let array = item.arrayValue, array.count == 4 else { return [diagnostic("Not DeviceAuthentication", item)] }
        var lines: [Explanation] = [Explanation("Context", "\(array[0].textValue ?? array[0].diagnosticNotation())")]
        lines.append(Explanation("SessionTranscript", children: decoding(array[1], as: SessionTranscript.self, sessionTranscript)))
        lines.append(Explanation("DocType", array[2].textValue.map { "\"\($0)\"" } ?? "\(array[2].diagnosticNotation())"))
        lines.append(Explanation("DeviceNameSpacesBytes", children: decoding(array[3], as: EmbeddedCBOR<DeviceNameSpaces>.self) { embedded in
            deviceNameSpaces(embedded.value)
        }))
        return lines
    }

    /// ReaderAuthentication (ISO/IEC 18013-5 9.1.4):
    /// `["ReaderAuthentication", SessionTranscript, ItemsRequestBytes]`.
    static func readerAuthentication(_ authentication: ReaderAuthentication) -> [Explanation] {
        [
            Explanation("Context", "\(ReaderAuthentication.context)"),
            Explanation("SessionTranscript", children: sessionTranscript(authentication.sessionTranscript)),
            Explanation("ItemsRequestBytes", "\(authentication.itemsRequestBytes.bytes.count) bytes",
                        children: itemsRequest(authentication.itemsRequestBytes.value)),
        ]
    }
}
