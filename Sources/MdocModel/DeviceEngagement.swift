import MdocCBOR

/// `DeviceEngagement` (ISO/IEC 18013-5 8.2.1.1): what the mdoc offers the reader by QR code or
/// NFC: its ephemeral key and the ways to reach it.
///
/// ```
/// DeviceEngagement = {
///   0: tstr,                      ; Version
///   1: Security,
///   ? 2: DeviceRetrievalMethods,  ; absent with NFC handover
///   ? 3: ServerRetrievalMethods,
///   ? 4: ProtocolInfo,
///   ? 5: OriginInfos,             ; ISO/IEC TS 18013-7, second edition
///   ? 6: Capabilities,            ; second edition
///   * int => any
/// }
/// ```
/// Keys this type does not model are kept in ``additionalEntries`` and written after the
/// modelled ones, so a re-encoded engagement never drops them. The bytes the SessionTranscript
/// uses are those of a received `EmbeddedCBOR` (DeviceEngagementBytes), never a re-encoding.
public struct DeviceEngagement: CBORRepresentable {
    /// Map keys of DeviceEngagement.
    public enum Key {
        /// Key 0: Version.
        public static let version: Int64 = 0
        /// Key 1: Security.
        public static let security: Int64 = 1
        /// Key 2: DeviceRetrievalMethods.
        public static let deviceRetrievalMethods: Int64 = 2
        /// Key 3: ServerRetrievalMethods.
        public static let serverRetrievalMethods: Int64 = 3
        /// Key 4: ProtocolInfo.
        public static let protocolInfo: Int64 = 4
        /// Key 5: OriginInfos.
        public static let originInfos: Int64 = 5
        /// Key 6: Capabilities.
        public static let capabilities: Int64 = 6
        static let all = [version, security, deviceRetrievalMethods, serverRetrievalMethods, protocolInfo, originInfos, capabilities]
    }

    /// Key 0: the version, "1.0" in 18013-5:2021.
    public var version: String
    /// Key 1: cipher suite and EDeviceKeyBytes.
    public var security: Security
    /// Key 2: the device retrieval methods offered, or `nil` when absent (NFC handover).
    public var deviceRetrievalMethods: [DeviceRetrievalMethod]?
    /// Key 3: the server retrieval methods, as received.
    public var serverRetrievalMethods: CBOR?
    /// Key 4: protocol information, as received.
    public var protocolInfo: CBOR?
    /// Key 5: origin information.
    public var originInfos: [OriginInfo]?
    /// Key 6: capabilities (`{* int => any}`), as received.
    public var capabilities: CBORMap?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        version: String = "1.0",
        security: Security,
        deviceRetrievalMethods: [DeviceRetrievalMethod]? = nil,
        serverRetrievalMethods: CBOR? = nil,
        protocolInfo: CBOR? = nil,
        originInfos: [OriginInfo]? = nil,
        capabilities: CBORMap? = nil,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.version = version
        self.security = security
        self.deviceRetrievalMethods = deviceRetrievalMethods
        self.serverRetrievalMethods = serverRetrievalMethods
        self.protocolInfo = protocolInfo
        self.originInfos = originInfos
        self.capabilities = capabilities
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        version = try map.required(int: Key.version, at: path).text(at: path.appending(intKey: Key.version))
        security = try Security(cbor: map.required(int: Key.security, at: path), at: path.appending(intKey: Key.security))
        if let methods = map[int: Key.deviceRetrievalMethods] {
            deviceRetrievalMethods = try methods.array(at: path.appending(intKey: Key.deviceRetrievalMethods)) {
                (item, itemPath) throws(CBORError) in try DeviceRetrievalMethod(cbor: item, at: itemPath)
            }
        } else {
            deviceRetrievalMethods = nil
        }
        serverRetrievalMethods = map[int: Key.serverRetrievalMethods]
        protocolInfo = map[int: Key.protocolInfo]
        if let infos = map[int: Key.originInfos] {
            originInfos = try infos.array(at: path.appending(intKey: Key.originInfos)) {
                (item, itemPath) throws(CBORError) in try OriginInfo(cbor: item, at: itemPath)
            }
        } else {
            originInfos = nil
        }
        capabilities = try map[int: Key.capabilities].map { (value) throws(CBORError) in
            try value.map(at: path.appending(intKey: Key.capabilities))
        }
        additionalEntries = map.entries(excludingInt: Key.all)
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append(CBOR(Key.version), .textString(version))
        map.append(CBOR(Key.security), security.cbor)
        if let deviceRetrievalMethods {
            map.append(CBOR(Key.deviceRetrievalMethods), .array(deviceRetrievalMethods.map(\.cbor)))
        }
        if let serverRetrievalMethods { map.append(CBOR(Key.serverRetrievalMethods), serverRetrievalMethods) }
        if let protocolInfo { map.append(CBOR(Key.protocolInfo), protocolInfo) }
        if let originInfos { map.append(CBOR(Key.originInfos), .array(originInfos.map(\.cbor))) }
        if let capabilities { map.append(CBOR(Key.capabilities), .map(capabilities)) }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }

    /// The options of every BLE retrieval method merged into one, or `nil` when none is offered.
    /// An mdoc may offer both modes in one method or one method per mode (8.2.1.1); readers see
    /// both the same way through this view.
    public var bleOptions: BleOptions? {
        BleOptions.merging((deviceRetrievalMethods ?? []).compactMap(\.bleOptions))
    }
}
