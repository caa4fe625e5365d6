import MdocCBOR
import MdocFiles
import MdocModel
import MdocText

/// Explains ISO/IEC 18013-5 messages for people, as `openssl x509 -text` explains a
/// certificate: every field named after the standard, codes with their meaning, embedded CBOR
/// decoded, keys as COSE_Key parameters, certificates field by field with their Annex B profile,
/// and bytes in hex only where they have no further structure (keys' coordinates, digests,
/// salts, signatures, ciphertext).
///
/// Explaining never verifies: signatures and MACs are described, not checked (that is what
/// `mdoc-reader verify` and `verify-request` do). A part that does not decode as the structure
/// its place requires is shown with the decoding error and its diagnostic notation, and the rest
/// is still explained.
public enum MessageExplainer {
    /// The explanation of `item` as the message `kind`, or as the kind `MessageKind` (MdocFiles)
    /// recognises when `kind` is `nil`; CBOR of no known kind is shown in diagnostic notation.
    public static func explain(_ item: CBOR, as kind: MessageKind? = nil) -> Explanation {
        guard let kind = kind ?? MessageKind(of: item) else {
            return diagnostic("CBOR data item", item)
        }
        return Explanation("\(kind.rawValue)", children: children(of: item, as: kind))
    }

    /// The lines explaining `item` as `kind`.
    static func children(of item: CBOR, as kind: MessageKind) -> [Explanation] {
        switch kind {
        case .deviceEngagement: return decoding(item, as: DeviceEngagement.self, deviceEngagement)
        case .sessionEstablishment: return decoding(item, as: SessionEstablishment.self, sessionEstablishment)
        case .sessionData: return decoding(item, as: SessionData.self, sessionData)
        case .deviceRequest: return decoding(item, as: DeviceRequest.self, deviceRequest)
        case .deviceResponse: return decoding(item, as: DeviceResponse.self, deviceResponse)
        case .issuerSigned: return decoding(item, as: IssuerSigned.self) { issuerSigned($0, docType: nil) }
        case .deviceSigned: return decoding(item, as: DeviceSigned.self, deviceSigned)
        case .itemsRequest: return decoding(item, as: ItemsRequest.self, itemsRequest)
        case .mobileSecurityObject: return decoding(item, as: MobileSecurityObject.self, mobileSecurityObject)
        case .sessionTranscript: return decoding(item, as: SessionTranscript.self, sessionTranscript)
        case .coseSign1: return coseSign1(item, role: nil)
        case .coseMac0: return coseMac0(item)
        case .coseKey: return coseKey(item)
        case .encodedCBOR: return embedded(item)
        case .deviceAuth: return decoding(item, as: DeviceAuth.self, deviceAuth)
        case .deviceAuthentication: return deviceAuthentication(item)
        case .readerAuthentication: return decoding(item, as: ReaderAuthentication.self, readerAuthentication)
        case .sigStructure, .macStructure: return coseStructure(item)
        case .drivingPrivileges: return drivingPrivileges(item)
        case .credential: return credential(item)
        }
    }

    /// `item` decoded as `Value`, explained by `explain`; when it does not decode, the error
    /// (with its CBOR path) and the item's diagnostic notation.
    static func decoding<Value: CBORRepresentable>(
        _ item: CBOR, as type: Value.Type, _ explain: (Value) -> [Explanation]
    ) -> [Explanation] {
        do {
            return explain(try Value(cbor: item, at: .root))
        } catch {
            return [Explanation("Does not decode as \(String(describing: type))", "\(error)"), diagnostic("As CBOR", item)]
        }
    }

    /// Embedded CBOR (tag 24): its size and the explanation of the item inside.
    static func embedded(_ item: CBOR) -> [Explanation] {
        guard case .tagged(CBOR.Tag.encodedCBOR, .byteString(let bytes)) = item else {
            return [diagnostic("Not embedded CBOR", item)]
        }
        do {
            let inner = try CBOR.decode(bytes)
            return [Explanation("Embedded item", "\(bytes.count) bytes"), explain(inner)]
        } catch {
            return [Explanation("Embedded item", "\(bytes.count) bytes, not well-formed CBOR: \(error)"), Explanation.bytes("Bytes", bytes)]
        }
    }

    /// A line for a value of no known structure (see ``Explanation/diagnostic(_:_:)``).
    static func diagnostic(_ label: TerminalText, _ item: CBOR) -> Explanation {
        Explanation.diagnostic(label, item)
    }

    /// Lines for map entries a structure does not model, or nothing when there are none.
    static func otherEntries(_ map: CBORMap) -> [Explanation] {
        guard !map.isEmpty else { return [] }
        return [Explanation("Other entries (not in ISO/IEC 18013-5:2021)", children: map.entries.map { entry in
            diagnostic("\(entry.key.diagnosticNotation())", entry.value)
        })]
    }

    /// Lines for the entries of `map` whose keys are not among the integers `known`.
    static func otherEntries(_ map: CBORMap, excludingInt known: [Int64]) -> [Explanation] {
        otherEntries(CBORMap(map.entries.filter { entry in entry.key.int64Value.map { !known.contains($0) } ?? true }))
    }

    /// "yes" or "no".
    static func yesNo(_ value: Bool) -> TerminalText {
        value ? "yes" : "no"
    }
}
