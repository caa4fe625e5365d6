import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BleOptions {
    /// The BLE options an mdoc offers for a new engagement (ISO/IEC 18013-5 8.2.1.1, 8.3.3.1.1):
    /// both mode flags written, and a new random service UUID for each mode offered, so a
    /// reader nearby cannot link this engagement to an earlier one.
    public static func offering(peripheralServerMode: Bool, centralClientMode: Bool) -> BleOptions {
        BleOptions(
            peripheralServerModeSupported: peripheralServerMode,
            centralClientModeSupported: centralClientMode,
            peripheralServerModeUUID: peripheralServerMode ? UUID() : nil,
            centralClientModeUUID: centralClientMode ? UUID() : nil)
    }

    /// Why these options cannot go into an engagement, or `nil`: at least one mode must be
    /// offered, and each offered mode needs its service UUID (8.2.1.1).
    var engagementProblem: String? {
        if !peripheralServerModeSupported && !centralClientModeSupported {
            return "the BLE options offer neither peripheral server nor central client mode"
        }
        if peripheralServerModeSupported && peripheralServerModeUUID == nil {
            return "the BLE options offer peripheral server mode without its service UUID (key 10)"
        }
        if centralClientModeSupported && centralClientModeUUID == nil {
            return "the BLE options offer central client mode without its service UUID (key 11)"
        }
        return nil
    }
}
