/// An ATT PDU opcode (Bluetooth Core Vol 3 Part F 3.3.1, 3.4.8 table 3.37).
///
/// Bit 6 is the command flag; bit 7 the authentication signature flag. Opcodes this module does
/// not implement are still representable, so that a request can be answered with
/// "Request Not Supported".
public struct ATTOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The opcode octet.
    public let rawValue: UInt8

    /// The opcode `rawValue`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// True when the command flag (bit 6) is set: the PDU is a command and never gets a
    /// response, not even an Error Response (Core Vol 3 Part F 3.3.1, 3.4.1.1).
    public var isCommand: Bool { rawValue & 0x40 != 0 }

    /// The PDU's name as Core Vol 3 Part F 3.4 writes it, and the opcode in hex.
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true)
        guard let name = Self.names[rawValue] else { return "opcode \(hex)" }
        return "\(name) (\(hex))"
    }

    /// ATT_ERROR_RSP (Core Vol 3 Part F 3.4.1.1).
    public static let errorResponse = ATTOpcode(rawValue: 0x01)
    /// ATT_EXCHANGE_MTU_REQ (3.4.2.1).
    public static let exchangeMTURequest = ATTOpcode(rawValue: 0x02)
    /// ATT_EXCHANGE_MTU_RSP (3.4.2.2).
    public static let exchangeMTUResponse = ATTOpcode(rawValue: 0x03)
    /// ATT_FIND_INFORMATION_REQ (3.4.3.1).
    public static let findInformationRequest = ATTOpcode(rawValue: 0x04)
    /// ATT_FIND_INFORMATION_RSP (3.4.3.2).
    public static let findInformationResponse = ATTOpcode(rawValue: 0x05)
    /// ATT_FIND_BY_TYPE_VALUE_REQ (3.4.3.3).
    public static let findByTypeValueRequest = ATTOpcode(rawValue: 0x06)
    /// ATT_FIND_BY_TYPE_VALUE_RSP (3.4.3.4).
    public static let findByTypeValueResponse = ATTOpcode(rawValue: 0x07)
    /// ATT_READ_BY_TYPE_REQ (3.4.4.1).
    public static let readByTypeRequest = ATTOpcode(rawValue: 0x08)
    /// ATT_READ_BY_TYPE_RSP (3.4.4.2).
    public static let readByTypeResponse = ATTOpcode(rawValue: 0x09)
    /// ATT_READ_REQ (3.4.4.3).
    public static let readRequest = ATTOpcode(rawValue: 0x0A)
    /// ATT_READ_RSP (3.4.4.4).
    public static let readResponse = ATTOpcode(rawValue: 0x0B)
    /// ATT_READ_BLOB_REQ (3.4.4.5).
    public static let readBlobRequest = ATTOpcode(rawValue: 0x0C)
    /// ATT_READ_BLOB_RSP (3.4.4.6).
    public static let readBlobResponse = ATTOpcode(rawValue: 0x0D)
    /// ATT_READ_BY_GROUP_TYPE_REQ (3.4.4.9).
    public static let readByGroupTypeRequest = ATTOpcode(rawValue: 0x10)
    /// ATT_READ_BY_GROUP_TYPE_RSP (3.4.4.10).
    public static let readByGroupTypeResponse = ATTOpcode(rawValue: 0x11)
    /// ATT_WRITE_REQ (3.4.5.1).
    public static let writeRequest = ATTOpcode(rawValue: 0x12)
    /// ATT_WRITE_RSP (3.4.5.2).
    public static let writeResponse = ATTOpcode(rawValue: 0x13)
    /// ATT_WRITE_CMD (3.4.5.3).
    public static let writeCommand = ATTOpcode(rawValue: 0x52)
    /// ATT_HANDLE_VALUE_NTF (3.4.7.1).
    public static let handleValueNotification = ATTOpcode(rawValue: 0x1B)
    /// ATT_HANDLE_VALUE_IND (3.4.7.2).
    public static let handleValueIndication = ATTOpcode(rawValue: 0x1D)
    /// ATT_HANDLE_VALUE_CFM (3.4.7.3).
    public static let handleValueConfirmation = ATTOpcode(rawValue: 0x1E)

    /// The response opcode that answers this request opcode, when it is one of the requests this
    /// module implements (Core Vol 3 Part F 3.4.8: a request's response is its opcode plus one).
    var responseOpcode: ATTOpcode? {
        switch self {
        case .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest,
             .readByTypeRequest, .readRequest, .readBlobRequest, .readByGroupTypeRequest,
             .writeRequest:
            ATTOpcode(rawValue: rawValue + 1)
        default:
            nil
        }
    }

    private static let names: [UInt8: String] = [
        0x01: "Error Response", 0x02: "Exchange MTU Request", 0x03: "Exchange MTU Response",
        0x04: "Find Information Request", 0x05: "Find Information Response",
        0x06: "Find By Type Value Request", 0x07: "Find By Type Value Response",
        0x08: "Read By Type Request", 0x09: "Read By Type Response", 0x0A: "Read Request",
        0x0B: "Read Response", 0x0C: "Read Blob Request", 0x0D: "Read Blob Response",
        0x0E: "Read Multiple Request", 0x0F: "Read Multiple Response",
        0x10: "Read By Group Type Request", 0x11: "Read By Group Type Response",
        0x12: "Write Request", 0x13: "Write Response", 0x16: "Prepare Write Request",
        0x17: "Prepare Write Response", 0x18: "Execute Write Request", 0x19: "Execute Write Response",
        0x1B: "Handle Value Notification", 0x1D: "Handle Value Indication",
        0x1E: "Handle Value Confirmation", 0x20: "Read Multiple Variable Request",
        0x21: "Read Multiple Variable Response", 0x23: "Multiple Handle Value Notification",
        0x52: "Write Command", 0xD2: "Signed Write Command",
    ]
}
