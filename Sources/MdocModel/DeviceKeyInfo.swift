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
