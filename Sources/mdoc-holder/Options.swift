import ArgumentParser
import MdocBLE
import MdocCrypto
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

    /// The modes offered.
    var modes: Set<MdocBLEMode> {
        Set(MdocBLEMode.allCases.filter { $0 == .peripheralServer ? self != .central : self != .peripheral })
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

/// `--edevice-curve`: the curve of EDeviceKey, the session's ephemeral key (ISO/IEC 18013-5
/// 9.1.1.4, curves of 9.1.5.2). The reader makes EReaderKey on the same curve, and DeviceMac
/// needs the device key on it too (9.1.3.5): on another curve the response carries a
/// DeviceSignature.
enum EphemeralCurveChoice: String, ExpressibleByArgument, CaseIterable {
    case p256, p384, p521, brainpoolP256r1, brainpoolP320r1, brainpoolP384r1, brainpoolP512r1, x25519, x448

    /// The curve named.
    var curve: Curve {
        switch self {
        case .p256: return .p256
        case .p384: return .p384
        case .p521: return .p521
        case .brainpoolP256r1: return .brainpoolP256r1
        case .brainpoolP320r1: return .brainpoolP320r1
        case .brainpoolP384r1: return .brainpoolP384r1
        case .brainpoolP512r1: return .brainpoolP512r1
        case .x25519: return .x25519
        case .x448: return .x448
        }
    }
}

extension NFCHandoverMode: ExpressibleByArgument {}
