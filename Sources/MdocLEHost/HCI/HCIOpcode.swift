import MdocBLE

/// An HCI command opcode: the 6-bit OpCode Group Field and the 10-bit OpCode Command Field
/// (Bluetooth Core Vol 4 Part E 5.4.1), with the commands this host sends.
public struct HCIOpcode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The opcode as sent, least significant octet first: `OGF << 10 | OCF`.
    public let rawValue: UInt16

    /// The opcode `rawValue`.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The opcode of command `ocf` in group `ogf`.
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    /// The OpCode Group Field.
    public var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// The OpCode Command Field.
    public var ocf: UInt16 { rawValue & 0x03FF }

    /// No operation: a Command Complete or Command Status with this opcode only updates
    /// Num_HCI_Command_Packets (Core Vol 4 Part E 7.7.14).
    public static let noOperation = HCIOpcode(rawValue: 0x0000)

    // Link Control commands (OGF 0x01), Core Vol 4 Part E 7.1.
    /// Disconnect (7.1.6).
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)

    // Controller & Baseband commands (OGF 0x03), Core Vol 4 Part E 7.3.
    /// Set Event Mask (7.3.1).
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// Reset (7.3.2).
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    /// Write LE Host Support (7.3.79).
    public static let writeLEHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x006D)

    // Informational parameters (OGF 0x04), Core Vol 4 Part E 7.4.
    /// Read Local Version Information (7.4.1).
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// Read Buffer Size (7.4.5).
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    /// Read BD_ADDR (7.4.6).
    public static let readBDADDR = HCIOpcode(ogf: 0x04, ocf: 0x0009)

    // LE Controller commands (OGF 0x08), Core Vol 4 Part E 7.8.
    /// LE Set Event Mask (7.8.1).
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// LE Read Buffer Size (7.8.2).
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// LE Read Local Supported Features (7.8.3).
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// LE Set Random Address (7.8.4).
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// LE Set Advertising Parameters (7.8.5).
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// LE Set Advertising Data (7.8.7).
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// LE Set Scan Response Data (7.8.8).
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    /// LE Set Advertising Enable (7.8.9).
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    /// LE Set Scan Parameters (7.8.10).
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// LE Set Scan Enable (7.8.11).
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// LE Create Connection (7.8.12).
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    /// LE Create Connection Cancel (7.8.13).
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    /// LE Connection Update (7.8.18).
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    /// LE Write Suggested Default Data Length (7.8.35).
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0024)

    private static let names: [UInt16: String] = [
        noOperation.rawValue: "No Operation",
        disconnect.rawValue: "Disconnect",
        setEventMask.rawValue: "Set Event Mask",
        reset.rawValue: "Reset",
        writeLEHostSupport.rawValue: "Write LE Host Support",
        readLocalVersionInformation.rawValue: "Read Local Version Information",
        readBufferSize.rawValue: "Read Buffer Size",
        readBDADDR.rawValue: "Read BD_ADDR",
        leSetEventMask.rawValue: "LE Set Event Mask",
        leReadBufferSize.rawValue: "LE Read Buffer Size",
        leReadLocalSupportedFeatures.rawValue: "LE Read Local Supported Features",
        leSetRandomAddress.rawValue: "LE Set Random Address",
        leSetAdvertisingParameters.rawValue: "LE Set Advertising Parameters",
        leSetAdvertisingData.rawValue: "LE Set Advertising Data",
        leSetScanResponseData.rawValue: "LE Set Scan Response Data",
        leSetAdvertisingEnable.rawValue: "LE Set Advertising Enable",
        leSetScanParameters.rawValue: "LE Set Scan Parameters",
        leSetScanEnable.rawValue: "LE Set Scan Enable",
        leCreateConnection.rawValue: "LE Create Connection",
        leCreateConnectionCancel.rawValue: "LE Create Connection Cancel",
        leConnectionUpdate.rawValue: "LE Connection Update",
        leWriteSuggestedDefaultDataLength.rawValue: "LE Write Suggested Default Data Length",
    ]

    /// The command's name from the Core specification, or the opcode in hex.
    public var description: String {
        Self.names[rawValue] ?? "HCI command 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}
