import MdocCBOR

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `BleOptions`: the retrieval options of a BLE DeviceRetrievalMethod (ISO/IEC 18013-5 8.2.1.1,
/// 8.3.3.1.1).
///
/// ```
/// BleOptions = {
///   0 : bool,     ; peripheral server mode supported
///   1 : bool,     ; central client mode supported
///   ? 10 : bstr,  ; peripheral server mode UUID
///   ? 11 : bstr,  ; central client mode UUID
///   ? 20 : bstr   ; mdoc BLE device address (peripheral server mode)
/// }
/// ```
/// Keys not modelled here (such as 2, the L2CAP PSM of later editions) are kept in
/// ``additionalEntries`` and written after the modelled ones.
public struct BleOptions: CBORRepresentable, Hashable {
    /// Map keys of BleOptions.
    public enum Key {
        /// Key 0.
        public static let peripheralServerModeSupported: Int64 = 0
        /// Key 1.
        public static let centralClientModeSupported: Int64 = 1
        /// Key 10.
        public static let peripheralServerModeUUID: Int64 = 10
        /// Key 11.
        public static let centralClientModeUUID: Int64 = 11
        /// Key 20.
        public static let mdocBLEDeviceAddress: Int64 = 20
        static let all = [peripheralServerModeSupported, centralClientModeSupported, peripheralServerModeUUID,
                          centralClientModeUUID, mdocBLEDeviceAddress]
    }

    /// The byte count of a BLE device address (Bluetooth Core Specification vol. 6 part B 1.3).
    public static let deviceAddressByteCount = 6

    /// Key 0: the mdoc can act as GATT server (mdoc peripheral server mode).
    public var peripheralServerModeSupported: Bool
    /// Key 1: the mdoc can act as GATT client (mdoc central client mode).
    public var centralClientModeSupported: Bool
    /// Key 10: the service UUID for mdoc peripheral server mode.
    public var peripheralServerModeUUID: UUID?
    /// Key 11: the service UUID for mdoc central client mode.
    public var centralClientModeUUID: UUID?
    /// Key 20: the mdoc's BLE device address for peripheral server mode.
    public var mdocBLEDeviceAddress: [UInt8]?
    /// Entries with keys not modelled above, in received order.
    public var additionalEntries: CBORMap

    /// Builds the structure from its parts.
    public init(
        peripheralServerModeSupported: Bool = false,
        centralClientModeSupported: Bool = false,
        peripheralServerModeUUID: UUID? = nil,
        centralClientModeUUID: UUID? = nil,
        mdocBLEDeviceAddress: [UInt8]? = nil,
        additionalEntries: CBORMap = CBORMap()
    ) {
        self.peripheralServerModeSupported = peripheralServerModeSupported
        self.centralClientModeSupported = centralClientModeSupported
        self.peripheralServerModeUUID = peripheralServerModeUUID
        self.centralClientModeUUID = centralClientModeUUID
        self.mdocBLEDeviceAddress = mdocBLEDeviceAddress
        self.additionalEntries = additionalEntries
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let map = try cbor.map(at: path)
        peripheralServerModeSupported = try map.required(int: Key.peripheralServerModeSupported, at: path)
            .bool(at: path.appending(intKey: Key.peripheralServerModeSupported))
        centralClientModeSupported = try map.required(int: Key.centralClientModeSupported, at: path)
            .bool(at: path.appending(intKey: Key.centralClientModeSupported))
        peripheralServerModeUUID = try Self.uuid(map, Key.peripheralServerModeUUID, at: path)
        centralClientModeUUID = try Self.uuid(map, Key.centralClientModeUUID, at: path)
        if let address = map[int: Key.mdocBLEDeviceAddress] {
            let addressPath = path.appending(intKey: Key.mdocBLEDeviceAddress)
            let bytes = try address.bytes(at: addressPath)
            guard bytes.count == Self.deviceAddressByteCount else {
                throw CBORError(.invalidValue, "a BLE device address has \(Self.deviceAddressByteCount) bytes, found \(bytes.count)", path: addressPath)
            }
            mdocBLEDeviceAddress = bytes
        } else {
            mdocBLEDeviceAddress = nil
        }
        additionalEntries = map.entries(excludingInt: Key.all)
    }

    public var cbor: CBOR {
        var map = CBORMap()
        map.append(CBOR(Key.peripheralServerModeSupported), .boolean(peripheralServerModeSupported))
        map.append(CBOR(Key.centralClientModeSupported), .boolean(centralClientModeSupported))
        if let peripheralServerModeUUID {
            map.append(CBOR(Key.peripheralServerModeUUID), .byteString(Self.bytes(of: peripheralServerModeUUID)))
        }
        if let centralClientModeUUID {
            map.append(CBOR(Key.centralClientModeUUID), .byteString(Self.bytes(of: centralClientModeUUID)))
        }
        if let mdocBLEDeviceAddress {
            map.append(CBOR(Key.mdocBLEDeviceAddress), .byteString(mdocBLEDeviceAddress))
        }
        map.append(contentsOf: additionalEntries)
        return .map(map)
    }

    /// The options of several BLE methods as one: a mode is supported when any method supports
    /// it, and each UUID, the address and each additional key come from the first method that
    /// has them (ISO/IEC 18013-5 8.2.1.1 allows one method with both modes or one method per mode).
    public static func merging(_ options: [BleOptions]) -> BleOptions? {
        guard var merged = options.first else { return nil }
        for next in options.dropFirst() {
            merged.peripheralServerModeSupported = merged.peripheralServerModeSupported || next.peripheralServerModeSupported
            merged.centralClientModeSupported = merged.centralClientModeSupported || next.centralClientModeSupported
            merged.peripheralServerModeUUID = merged.peripheralServerModeUUID ?? next.peripheralServerModeUUID
            merged.centralClientModeUUID = merged.centralClientModeUUID ?? next.centralClientModeUUID
            merged.mdocBLEDeviceAddress = merged.mdocBLEDeviceAddress ?? next.mdocBLEDeviceAddress
            for entry in next.additionalEntries.entries where merged.additionalEntries[entry.key] == nil {
                merged.additionalEntries.append(entry.key, entry.value)
            }
        }
        return merged
    }

    private static func uuid(_ map: CBORMap, _ key: Int64, at path: CBORPath) throws(CBORError) -> UUID? {
        guard let value = map[int: key] else { return nil }
        let uuidPath = path.appending(intKey: key)
        let b = try value.bytes(at: uuidPath)
        guard b.count == 16 else {
            throw CBORError(.invalidValue, "a UUID has 16 bytes, found \(b.count)", path: uuidPath)
        }
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static func bytes(of uuid: UUID) -> [UInt8] {
        let u = uuid.uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }
}
