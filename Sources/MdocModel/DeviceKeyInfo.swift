import MdocCBOR
import MdocCOSE

/// `DeviceKeyInfo` (ISO/IEC 18013-5 9.1.2.4): the mdoc's static device key as the issuer signed it.
///
/// ```
/// DeviceKeyInfo = {
///   "deviceKey": DeviceKey,          ; COSE_Key
///   ? "keyAuthorizations": KeyAuthorizations,
///   ? "keyInfo": KeyInfo             ; {* int => any}
/// }
/// ```
public struct DeviceKeyInfo: CBORRepresentable {
    /// The static device key the mdoc authenticates with (9.1.3).
    public var deviceKey: COSEKey
    /// What the device key may sign or MAC in DeviceSigned.
    public var keyAuthorizations: KeyAuthorizations?
    /// Key information, as received.
    public var keyInfo: CBORMap?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(deviceKey: COSEKey, keyAuthorizations: KeyAuthorizations? = nil, keyInfo: CBORMap? = nil, additionalEntries: CBORMap = CBORMap()) {
        self.deviceKey = deviceKey
        self.keyAuthorizations = keyAuthorizations
        self.keyInfo = keyInfo
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        deviceKey = try COSEKey(cbor: map.required("deviceKey", at: path), at: path.appending(key: "deviceKey"))
        keyAuthorizations = try map[text: "keyAuthorizations"].map { (value) throws(CBORError) in
            try KeyAuthorizations(cbor: value, at: path.appending(key: "keyAuthorizations"))
        }
        keyInfo = try map[text: "keyInfo"].map { (value) throws(CBORError) in
            try value.map(at: path.appending(key: "keyInfo"))
        }
        additionalEntries = map.entries(excludingText: ["deviceKey", "keyAuthorizations", "keyInfo"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("deviceKey", deviceKey.cbor)
        if let keyAuthorizations { map.append("keyAuthorizations", keyAuthorizations.cbor) }
        if let keyInfo { map.append("keyInfo", .map(keyInfo)) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}

extension DeviceKeyInfo {
    /// The keys of a DeviceKeyInfo in the order of the CDDL.
    private static let keys: CBORTextKeys = ["deviceKey", "keyAuthorizations", "keyInfo"]

    /// The DeviceKeyInfo of an MSO (nested `depth` containers deep) read straight from the
    /// bytes, its COSE_Key and optional maps decoded as items: the keys of the CDDL, each once,
    /// and nothing else; `nil` for any other form, which ``init(cbor:at:)`` then gives or rejects
    /// (see `CBORHeadReader`).
    static func read(_ reader: inout CBORHeadReader, depth: Int) -> DeviceKeyInfo? {
        var deviceKey: COSEKey?
        var keyAuthorizations: KeyAuthorizations?
        var keyInfo: CBORMap?
        // The paths locate errors, which make this read give way to the decoder's.
        let read = reader.readMap(keyedBy: Self.keys) { key, reader in
            guard let item = reader.readItem(depth: depth + 1) else { return false }
            switch key {
            case 0:
                deviceKey = try? COSEKey(cbor: item, at: .root)
                return deviceKey != nil
            case 1:
                keyAuthorizations = try? KeyAuthorizations(cbor: item, at: .root)
                return keyAuthorizations != nil
            default:
                keyInfo = item.mapValue
                return keyInfo != nil
            }
        }
        guard read, let deviceKey else { return nil }
        return DeviceKeyInfo(deviceKey: deviceKey, keyAuthorizations: keyAuthorizations, keyInfo: keyInfo)
    }
}
