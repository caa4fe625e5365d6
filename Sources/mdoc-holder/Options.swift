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


extension NFCHandoverMode: ExpressibleByArgument {}
