/// The bearer a live session runs over, as given to `--transport` (design.md section 4).
///
/// Every bearer carries the same ISO/IEC 18013-5 BLE GATT service (8.3.3.1.1); only what is
/// under GATT changes.
public enum TransportSpec: Sendable, Hashable, CustomStringConvertible {
    /// ATT over a local Unix-domain socket named after the engagement's service UUID.
    case sim

    /// The names `--transport` accepts, for help texts.
    public static let accepted = ["sim"]

    /// Parses a `--transport` value.
    public init(parsing text: String) throws(LinkError) {
        switch text {
        case "sim":
            self = .sim
        default:
            throw LinkError(
                .unsupportedTransport,
                "transport \"\(text)\" is not available; this build supports: \(Self.accepted.joined(separator: ", "))")
        }
    }

    /// The `--transport` spelling.
    public var description: String {
        switch self {
        case .sim: return "sim"
        }
    }
}
