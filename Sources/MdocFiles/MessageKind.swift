import MdocCBOR

/// Recognises which ISO/IEC 18013-5 message a decoded item is, by its shape, so `mdoc inspect`
/// can name it. Recognition looks only at keys and array shapes; it never validates.
public enum MessageKind: String, Sendable, CaseIterable {
    /// DeviceEngagement.
    case deviceEngagement = "DeviceEngagement (18013-5 8.2.1.1)"
    /// SessionEstablishment.
    case sessionEstablishment = "SessionEstablishment (18013-5 9.1.1.4)"
    /// SessionData.
    case sessionData = "SessionData (18013-5 9.1.1.4)"
    /// DeviceRequest.
    case deviceRequest = "DeviceRequest (18013-5 8.3.2.1.2.1)"
    /// DeviceResponse.
    case deviceResponse = "DeviceResponse (18013-5 8.3.2.1.2.2)"
    /// IssuerSigned.
    case issuerSigned = "IssuerSigned (18013-5 8.3.2.1.2.2)"
    /// DeviceSigned.
    case deviceSigned = "DeviceSigned (18013-5 8.3.2.1.2.2)"
    /// ItemsRequest.
    case itemsRequest = "ItemsRequest (18013-5 8.3.2.1.2.1)"
    /// MobileSecurityObject.
    case mobileSecurityObject = "MobileSecurityObject (18013-5 9.1.2.4)"
    /// SessionTranscript.
    case sessionTranscript = "SessionTranscript (18013-5 9.1.5.1)"
    /// COSE_Sign1.
    case coseSign1 = "COSE_Sign1 (RFC 9052 4.2)"
    /// COSE_Mac0.
    case coseMac0 = "COSE_Mac0 (RFC 9052 6.2)"
    /// COSE_Key.
    case coseKey = "COSE_Key (RFC 9052 7)"
    /// An embedded CBOR data item.
    case encodedCBOR = "embedded CBOR, tag 24 (RFC 8949 3.4.5.1)"
    /// DeviceAuth: a DeviceSignature or a DeviceMac.
    case deviceAuth = "DeviceAuth (18013-5 8.3.2.1.2.2)"
    /// DeviceAuthentication, what DeviceSignature and DeviceMac cover.
    case deviceAuthentication = "DeviceAuthentication (18013-5 9.1.3.4)"
    /// ReaderAuthentication, what ReaderAuth covers.
    case readerAuthentication = "ReaderAuthentication (18013-5 9.1.4)"
    /// The Sig_structure a COSE_Sign1 signs.
    case sigStructure = "Sig_structure (RFC 9052 4.4)"
    /// The MAC_structure a COSE_Mac0 authenticates.
    case macStructure = "MAC_structure (RFC 9052 6.3)"
    /// The driving_privileges data element.
    case drivingPrivileges = "driving_privileges (18013-5 7.2.4)"
    /// A credential file of this toolkit (IssuerSigned and the private device key).
    case credential = "credential (swift-mdoc credential file)"

    /// The kind of `item`, or `nil` for CBOR that is none of these.
    public init?(of item: CBOR) {
        switch item {
        case .map(let map):
            let has = { (key: String) in map[text: key] != nil }
            if has("docType") && has("issuerSigned") && has("deviceKey") {
                self = .credential
            } else if map.count == 1 && (has("deviceMac") || has("deviceSignature")) {
                self = .deviceAuth
            } else if has("version") && (has("documents") || has("status")) && !has("docRequests") {
                self = .deviceResponse
            } else if has("docRequests") {
                self = .deviceRequest
            } else if has("eReaderKey") && has("data") {
                self = .sessionEstablishment
            } else if (has("data") || has("status")) && map.count <= 2 {
                self = .sessionData
            } else if has("nameSpaces") && has("issuerAuth") {
                self = .issuerSigned
            } else if has("nameSpaces") && has("deviceAuth") {
                self = .deviceSigned
            } else if has("docType") && has("nameSpaces") {
                self = .itemsRequest
            } else if has("valueDigests") && has("deviceKeyInfo") {
                self = .mobileSecurityObject
            } else if map[int: 0]?.textValue != nil && map[int: 1]?.arrayValue != nil {
                self = .deviceEngagement
            } else if map[int: 1] != nil && map[int: -1] != nil {
                self = .coseKey
            } else {
                return nil
            }
        case .array(let items) where items.first?.textValue != nil:
            switch (items[0].textValue, items.count) {
            case ("DeviceAuthentication", 4): self = .deviceAuthentication
            case ("ReaderAuthentication", 3): self = .readerAuthentication
            case ("Signature1", 4): self = .sigStructure
            case ("MAC0", 4): self = .macStructure
            default: return nil
            }
        case .array(let items) where items.count == 4:
            guard items[0].bytesValue != nil, items[1].mapValue != nil else {
                return nil
            }
            self = Self.isMac(items[0]) ? .coseMac0 : .coseSign1
        case .array(let items) where items.count == 3:
            guard case .tagged(CBOR.Tag.encodedCBOR, _) = items[0], case .tagged(CBOR.Tag.encodedCBOR, _) = items[1] else {
                return nil
            }
            self = .sessionTranscript
        case .array(let items) where !items.isEmpty && items.allSatisfy({ $0.mapValue?[text: "vehicle_category_code"] != nil }):
            self = .drivingPrivileges
        case .tagged(18, let content):
            guard MessageKind(of: content) == .coseSign1 else { return nil }
            self = .coseSign1
        case .tagged(17, let content):
            guard MessageKind(of: content) == .coseMac0 else { return nil }
            self = .coseMac0
        case .tagged(CBOR.Tag.encodedCBOR, .byteString):
            self = .encodedCBOR
        default:
            return nil
        }
    }

    /// `true` when the protected header names a MAC algorithm (HMAC 256/64 to 512/512: 4...7).
    private static func isMac(_ protected: CBOR) -> Bool {
        guard let bytes = protected.bytesValue, let header = try? CBOR.decode(bytes),
            let alg = header.mapValue?[int: 1]?.int64Value
        else { return false }
        return (4...7).contains(alg)
    }
}
