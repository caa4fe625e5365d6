import MdocCBOR

/// `DeviceRetrievalMethod = [type: uint, version: uint, RetrievalOptions]` (ISO/IEC 18013-5
/// 8.2.1.1): one way the mdoc offers to transfer data.
public struct DeviceRetrievalMethod: CBORRepresentable, Hashable {
    /// The options of a method, by its type.
    public enum RetrievalOptions: Sendable, Hashable {
        /// Type 1.
        case nfc(NfcOptions)
        /// Type 2.
        case ble(BleOptions)
        /// Type 3.
        case wifiAware(WifiOptions)
        /// Any other type: the options as received.
        case other(CBOR)
    }

    /// The transfer method: 1 NFC, 2 BLE, 3 Wi-Fi Aware.
    public var type: MethodType
    /// The version of the method (1 in 18013-5:2021).
    public var version: UInt64
    /// The method's options; the case matches ``type`` for the three types the standard defines.
    public var retrievalOptions: RetrievalOptions

    /// Builds the structure from its parts.
    public init(type: MethodType, version: UInt64 = 1, retrievalOptions: RetrievalOptions) {
        self.type = type
        self.version = version
        self.retrievalOptions = retrievalOptions
    }

    /// A BLE method, version 1.
    public static func ble(_ options: BleOptions) -> DeviceRetrievalMethod {
        DeviceRetrievalMethod(type: .ble, retrievalOptions: .ble(options))
    }

    /// An NFC method, version 1.
    public static func nfc(_ options: NfcOptions) -> DeviceRetrievalMethod {
        DeviceRetrievalMethod(type: .nfc, retrievalOptions: .nfc(options))
    }

    /// A Wi-Fi Aware method, version 1.
    public static func wifiAware(_ options: WifiOptions) -> DeviceRetrievalMethod {
        DeviceRetrievalMethod(type: .wifiAware, retrievalOptions: .wifiAware(options))
    }

    public init(cbor: CBOR, at path: CBORPath) throws(CBORError) {
        let array = try cbor.array(at: path)
        guard array.count == 3 else {
            throw CBORError(.invalidValue, "DeviceRetrievalMethod must have 3 elements, found \(array.count)", path: path)
        }
        type = MethodType(rawValue: try array[0].uint(at: path.appending(index: 0)))
        version = try array[1].uint(at: path.appending(index: 1))
        let optionsPath = path.appending(index: 2)
        switch type {
        case .nfc: retrievalOptions = .nfc(try NfcOptions(cbor: array[2], at: optionsPath))
        case .ble: retrievalOptions = .ble(try BleOptions(cbor: array[2], at: optionsPath))
        case .wifiAware: retrievalOptions = .wifiAware(try WifiOptions(cbor: array[2], at: optionsPath))
        default: retrievalOptions = .other(array[2])
        }
    }

    public var cbor: CBOR {
        let options: CBOR
        switch retrievalOptions {
        case .nfc(let o): options = o.cbor
        case .ble(let o): options = o.cbor
        case .wifiAware(let o): options = o.cbor
        case .other(let o): options = o
        }
        return .array([.unsignedInt(type.rawValue), .unsignedInt(version), options])
    }

    /// The BLE options, when this is a BLE method.
    public var bleOptions: BleOptions? {
        if case .ble(let options) = retrievalOptions { return options }
        return nil
    }
}
