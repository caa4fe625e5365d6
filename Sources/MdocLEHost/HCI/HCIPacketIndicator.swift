import MdocBLE

/// The first octet of every packet on an HCI UART (H4) stream and on the Linux HCI user
/// channel: which kind of HCI packet follows (Bluetooth Core Vol 4 Part A 2, Table 2.1).
public enum HCIPacketIndicator: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// HCI Command packet, host to controller (Core Vol 4 Part E 5.4.1).
    case command = 0x01
    /// HCI ACL Data packet, both ways (Core Vol 4 Part E 5.4.2).
    case aclData = 0x02
    /// HCI Synchronous Data packet (SCO), both ways (Core Vol 4 Part E 5.4.3).
    case synchronousData = 0x03
    /// HCI Event packet, controller to host (Core Vol 4 Part E 5.4.4).
    case event = 0x04
    /// HCI ISO Data packet, both ways (Core Vol 4 Part E 5.4.5).
    case isoData = 0x05

    /// The packet kind's name, as logs print it.
    public var description: String {
        switch self {
        case .command: return "command"
        case .aclData: return "ACL data"
        case .synchronousData: return "synchronous data"
        case .event: return "event"
        case .isoData: return "ISO data"
        }
    }

    /// How many header octets follow the indicator, and where the payload length is in them:
    /// (header length, offset of the length field, width of the length field in octets).
    var headerLayout: (length: Int, lengthOffset: Int, lengthWidth: Int) {
        switch self {
        case .command: return (3, 2, 1)          // opcode (2), parameter total length (1)
        case .aclData: return (4, 2, 2)          // handle and flags (2), data total length (2)
        case .synchronousData: return (3, 2, 1)  // handle and flags (2), data total length (1)
        case .event: return (2, 1, 1)            // event code (1), parameter total length (1)
        case .isoData: return (4, 2, 2)          // handle and flags (2), 14-bit data length (2)
        }
    }
}
