import MdocCBOR

/// `DeviceSigned = {"nameSpaces": DeviceNameSpacesBytes, "deviceAuth": DeviceAuth}` (ISO/IEC
/// 18013-5 8.3.2.1.2.2).
///
/// DeviceNameSpacesBytes keeps the received bytes: DeviceAuthentication (9.1.3.4) covers them.
public struct DeviceSigned: CBORRepresentable {
    /// DeviceNameSpacesBytes, with the exact received bytes.
    public var nameSpaces: EmbeddedCBOR<DeviceNameSpaces>
    /// The mdoc's signature or MAC over DeviceAuthenticationBytes.
    public var deviceAuth: DeviceAuth
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(nameSpaces: EmbeddedCBOR<DeviceNameSpaces>, deviceAuth: DeviceAuth, additionalEntries: CBORMap = CBORMap()) {
        self.nameSpaces = nameSpaces
        self.deviceAuth = deviceAuth
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        nameSpaces = try EmbeddedCBOR(cbor: map.required("nameSpaces", at: path), at: path.appending(key: "nameSpaces"))
        deviceAuth = try DeviceAuth(cbor: map.required("deviceAuth", at: path), at: path.appending(key: "deviceAuth"))
        additionalEntries = map.entries(excludingText: ["nameSpaces", "deviceAuth"])
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append("nameSpaces", nameSpaces.cbor)
        map.append("deviceAuth", deviceAuth.cbor)
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }
}
