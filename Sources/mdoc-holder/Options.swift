import ArgumentParser
import MdocModel
import MdocPresentation
import MdocSession

/// `--ble-mode`: which ISO/IEC 18013-5 BLE modes the holder offers (8.3.3.1.1).
enum BLEModeChoice: String, ExpressibleByArgument, CaseIterable {
    /// mdoc peripheral server mode only: the holder advertises and serves GATT.
    case peripheral
    /// mdoc central client mode only: the reader advertises and serves GATT.
    case central
    /// Both; the reader chooses.
    case both

    /// The BleOptions of the engagement, with fresh service UUIDs.
    var bleOptions: BleOptions {
        BleOptions.offering(peripheralServerMode: self != .central, centralClientMode: self != .peripheral)
    }
}

/// `--device-auth`: how the holder authenticates its responses (ISO/IEC 18013-5 9.1.3).
enum DeviceAuthenticationChoice: String, ExpressibleByArgument, CaseIterable {
    /// DeviceMac (9.1.3.5) when the device key and EReaderKey share a curve, else DeviceSignature.
    case mac
    /// DeviceSignature (9.1.3.4) always.
    case signature

    /// The response builder's policy.
    var policy: ResponseBuilder.DeviceAuthenticationPolicy {
        self == .mac ? .preferMAC : .signature
    }
}

extension NFCHandoverMode: ExpressibleByArgument {}
