import MdocBLE

/// Where a controller is, as `--transport hci:…` names it (docs/architecture.md section 4).
///
/// | spelling | controller |
/// |---|---|
/// | `hci:tcp:HOST:PORT` | H4 over TCP: a Bumble virtual controller (`tcp-server:127.0.0.1:PORT`) or any HCI bridge |
/// | `hci:serial:DEV[,BAUD][,rtscts]` | H4 over a UART: an HCI dongle (Zephyr `hci_uart`, nRF, …), default 1,000,000 baud |
/// | `hci:user:N` | the Linux HCI user channel of adapter hciN (needs the adapter down and CAP_NET_ADMIN) |
public enum HCITransportSpec: Sendable, Hashable, CustomStringConvertible {
    /// H4 over a TCP connection to `host`:`port`.
    case tcp(host: String, port: UInt16)
    /// H4 over the serial line `path` at `baudRate`, with RTS/CTS flow control when `flowControl`.
    case serial(path: String, baudRate: Int, flowControl: Bool)
    /// The HCI user channel (HCI_CHANNEL_USER) of adapter hci`index`.
    case userChannel(index: UInt16)

    /// The baud rate of `hci:serial` when none is given: what HCI UART firmware commonly uses
    /// (Zephyr's hci_uart sample, Bumble's serial transport default).
    public static let defaultBaudRate = 1_000_000

    /// Parses the part after `hci:`. Throws `invalidTransport` naming what is wrong.
    public init(parsing text: String) throws(BLEError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let kind = parts[0]
        let rest = parts.count > 1 ? parts[1] : ""
        switch kind {
        case "tcp":
            guard let colon = rest.lastIndex(of: ":") else {
                throw BLEError(.invalidTransport, "hci:tcp needs HOST:PORT, as in hci:tcp:127.0.0.1:9001")
            }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
                throw BLEError(.invalidTransport, "hci:tcp:\(rest): needs a host and a port from 1 to 65535, as in hci:tcp:127.0.0.1:9001")
            }
            self = .tcp(host: host, port: port)
        case "serial":
            let fields = rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let path = fields.first, !path.isEmpty else {
                throw BLEError(.invalidTransport, "hci:serial needs a device, as in hci:serial:/dev/ttyACM0,1000000")
            }
            var baudRate = Self.defaultBaudRate
            var flowControl = false
            for field in fields.dropFirst() {
                if field == "rtscts" {
                    flowControl = true
                } else if let rate = Int(field), rate > 0 {
                    baudRate = rate
                } else {
                    throw BLEError(.invalidTransport, "hci:serial:\(rest): \"\(field)\" is neither a baud rate nor rtscts")
                }
            }
            self = .serial(path: path, baudRate: baudRate, flowControl: flowControl)
        case "user":
            guard let index = UInt16(rest) else {
                throw BLEError(.invalidTransport, "hci:user needs an adapter number, as in hci:user:0 for hci0")
            }
            self = .userChannel(index: index)
        default:
            throw BLEError(.invalidTransport, "hci:\(text): the HCI transports are hci:tcp:HOST:PORT, hci:serial:DEV[,BAUD][,rtscts] and hci:user:N")
        }
    }

    /// The spelling after `hci:`, as parsed.
    public var description: String {
        switch self {
        case .tcp(let host, let port):
            return "tcp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .serial(let path, let baudRate, let flowControl):
            return "serial:\(path),\(baudRate)\(flowControl ? ",rtscts" : "")"
        case .userChannel(let index):
            return "user:\(index)"
        }
    }
}
