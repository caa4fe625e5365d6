import Logging
import MdocBLE
import MdocBlueZ
import MdocLEHost
import MdocPresentation
import MdocSim

/// The bearer a live session runs over, as given to `--transport` (docs/architecture.md section 4).
///
/// Every bearer carries the same ISO/IEC 18013-5 BLE GATT service (8.3.3.1.1); only what is
/// under GATT changes.
package enum TransportSpec: Sendable, Hashable, CustomStringConvertible {
    /// ATT over a local Unix-domain socket named after the engagement's service UUID.
    case sim
    /// A controller driven by this toolkit's user-space LE host over HCI.
    case hci(HCITransportSpec)
    /// bluetoothd over D-Bus, with adapter `hciN` or, when nil, its first adapter.
    case bluez(adapter: String?)

    /// The names `--transport` accepts, for help texts.
    package static let accepted = ["sim", "bluez[:hciN]", "hci:tcp:HOST:PORT", "hci:serial:DEV[,BAUD][,rtscts]", "hci:user:N"]

    /// Parses a `--transport` value.
    package init(parsing text: String) throws(LinkError) {
        if text == "sim" {
            self = .sim
            return
        }
        if text == "bluez" || text.hasPrefix("bluez:") {
            let adapter = text.dropFirst("bluez".count).dropFirst()
            guard text == "bluez" || (adapter.hasPrefix("hci") && adapter.count > 3 && adapter.dropFirst(3).allSatisfy(\.isNumber)) else {
                throw LinkError(.unsupportedTransport, "bluez takes an adapter name such as hci0 (bluez:hci0), not \"\(adapter)\"")
            }
            self = .bluez(adapter: text == "bluez" ? nil : String(adapter))
            return
        }
        guard text.hasPrefix("hci:") else {
            throw LinkError(
                .unsupportedTransport,
                "transport \"\(text)\" is not available; this build supports: \(Self.accepted.joined(separator: ", "))")
        }
        do {
            self = .hci(try HCITransportSpec(parsing: String(text.dropFirst(4))))
        } catch {
            throw LinkError(.unsupportedTransport, error.reason)
        }
    }

    /// The `--transport` spelling.
    package var description: String {
        switch self {
        case .sim: return "sim"
        case .hci(let spec): return "hci:\(spec)"
        case .bluez(let adapter): return adapter.map { "bluez:\($0)" } ?? "bluez"
        }
    }

    /// Whether packets of this transport can be written to a btsnoop file (HCI transports).
    package var carriesHCI: Bool {
        if case .hci = self { return true }
        return false
    }

    /// The transport when `--transport` is not given: `bluez` when bluetoothd runs with an
    /// adapter, `sim` otherwise.
    package static func systemDefault() async -> TransportSpec {
        await BlueZRadio.isPresent() ? .bluez(adapter: nil) : .sim
    }

    /// Opens the radio: the sim adapter, bluetoothd's adapter, or a controller initialised by
    /// an ``LEHost`` whose HCI packets go to `btsnoop` when given. Throws
    /// `LinkError.Code.unavailable` with what to do when it cannot be used.
    package func open(btsnoop: String? = nil, logger: Logger = Logger(label: "mdoc.hci")) async throws(LinkError) -> any MdocRadio {
        switch self {
        case .sim:
            return SimAdapter()
        case .bluez(let adapter):
            do {
                return try await BlueZRadio.open(adapter: adapter)
            } catch {
                throw LinkError(.unavailable, "cannot use \(self): \(error.reason)")
            }
        case .hci(let spec):
            do {
                let snoop = try btsnoop.map { path throws(BLEError) in try BTSnoopWriter(path: path) }
                return try await LEHost.open(spec, snoop: snoop, logger: logger)
            } catch {
                throw LinkError(.unavailable, "cannot use \(self): \(error.reason)")
            }
        }
    }
}
