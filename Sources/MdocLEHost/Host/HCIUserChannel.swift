import CBlueZShims
import Glibc
import MdocBLE
import MdocPosix

/// Opens the Linux HCI user channel of `hci:user:N` through libbluetooth: an AF_BLUETOOTH raw
/// HCI socket bound to HCI_CHANNEL_USER, which gives this process the adapter alone; each read
/// and write is one packet with its H4 indicator (Linux net/bluetooth/hci_sock.c). The kernel
/// allows it only for an adapter that is down, to a process with CAP_NET_ADMIN.
enum HCIUserChannel {
    /// The largest packet the channel carries: an H4 indicator, an ACL header and the largest
    /// ACL payload the host accepts.
    static let maximumPacketSize = 1 + HCIACLData.headerLength + H4PacketDecoder.maximumACLDataLength

    /// An open, non-blocking, close-on-exec socket bound to the user channel of hci`index`.
    static func open(index: UInt16) throws(BLEError) -> Int32 {
        let name = "hci\(index)"
        var isUp: Int32 = 0
        var step: UnsafePointer<CChar>?
        let result = mdoc_hci_user_channel_open(index, &isUp, &step)
        if isUp != 0 {
            throw BLEError(.transportUnavailable,
                           "hci:user:\(index): \(name) is up, owned by the kernel's Bluetooth stack (bluetoothd); take it down first with `sudo btmgmt --index \(index) power off` or `sudo hciconfig \(name) down`, or use --transport bluez")
        }
        guard result >= 0 else {
            throw unavailable(-result, name: name, step: step.map { String(cString: $0) } ?? "open")
        }
        return result
    }

    /// The error for `code` from `step`, with what to do.
    private static func unavailable(_ code: Int32, name: String, step: String) -> BLEError {
        let index = name.dropFirst(3)
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT:
            return BLEError(.transportUnavailable,
                            "hci:user:\(index): this kernel has no Bluetooth support (\(step): \(String(cString: strerror(code)))); use hci:tcp with a virtual controller, hci:serial with a UART dongle, or --transport sim")
        case EPERM, EACCES:
            return BLEError(.transportUnavailable,
                            "hci:user:\(index): the HCI user channel needs CAP_NET_ADMIN; run as root or grant it with `sudo setcap cap_net_admin+ep \"$(command -v mdoc-holder)\"` (and mdoc-reader)")
        case ENODEV:
            return BLEError(.transportUnavailable, "hci:user:\(index): there is no adapter \(name) (list adapters with `btmgmt info` or `hciconfig -a`)")
        case EBUSY, EALREADY:
            return BLEError(.transportUnavailable,
                            "hci:user:\(index): \(name) is in use (up, or opened by another program); take it down first with `sudo btmgmt --index \(index) power off` or `sudo hciconfig \(name) down`")
        case ERFKILL:
            return BLEError(.transportUnavailable, "hci:user:\(index): \(name) is blocked by rfkill; unblock it with `rfkill unblock bluetooth`")
        default:
            return SystemCall.failure(step, code, "opening the HCI user channel of \(name)")
        }
    }
}
