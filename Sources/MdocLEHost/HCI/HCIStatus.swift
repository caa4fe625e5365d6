import MdocBLE

/// An HCI status or error code, as Command Complete, Command Status and other events carry it
/// and as the Disconnect reason (Bluetooth Core Vol 1 Part F 1.3).
public struct HCIStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let rawValue: UInt8

    /// The code `rawValue`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Success (0x00).
    public static let success = HCIStatus(rawValue: 0x00)
    /// Unknown HCI Command (0x01): the controller does not know the opcode.
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    /// Unknown Connection Identifier (0x02); also the status of an LE Connection Complete after
    /// LE Create Connection Cancel (Core Vol 4 Part E 7.8.13).
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    /// Connection Timeout (0x08): the supervision timeout expired, the link was lost.
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    /// Command Disallowed (0x0C).
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    /// Remote User Terminated Connection (0x13): the reason this host gives when it disconnects.
    public static let remoteUserTerminatedConnection = HCIStatus(rawValue: 0x13)
    /// Connection Terminated By Local Host (0x16).
    public static let connectionTerminatedByLocalHost = HCIStatus(rawValue: 0x16)

    private static let names: [UInt8: String] = [
        0x00: "Success",
        0x01: "Unknown HCI Command",
        0x02: "Unknown Connection Identifier",
        0x03: "Hardware Failure",
        0x04: "Page Timeout",
        0x05: "Authentication Failure",
        0x06: "PIN or Key Missing",
        0x07: "Memory Capacity Exceeded",
        0x08: "Connection Timeout",
        0x09: "Connection Limit Exceeded",
        0x0A: "Synchronous Connection Limit To A Device Exceeded",
        0x0B: "Connection Already Exists",
        0x0C: "Command Disallowed",
        0x0D: "Connection Rejected due to Limited Resources",
        0x0E: "Connection Rejected Due To Security Reasons",
        0x0F: "Connection Rejected due to Unacceptable BD_ADDR",
        0x10: "Connection Accept Timeout Exceeded",
        0x11: "Unsupported Feature or Parameter Value",
        0x12: "Invalid HCI Command Parameters",
        0x13: "Remote User Terminated Connection",
        0x14: "Remote Device Terminated Connection due to Low Resources",
        0x15: "Remote Device Terminated Connection due to Power Off",
        0x16: "Connection Terminated By Local Host",
        0x1A: "Unsupported Remote Feature",
        0x1F: "Unspecified Error",
        0x22: "LL Response Timeout",
        0x28: "Instant Passed",
        0x3B: "Unacceptable Connection Parameters",
        0x3C: "Advertising Timeout",
        0x3D: "Connection Terminated due to MIC Failure",
        0x3E: "Connection Failed to be Established",
        0x42: "Unknown Advertising Identifier",
        0x43: "Limit Reached",
        0x44: "Operation Cancelled by Host",
    ]

    /// The code's name from the Core specification and its value.
    public var description: String {
        let hex = "0x" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16, uppercase: true)
        return Self.names[rawValue].map { "\($0) (\(hex))" } ?? "HCI error \(hex)"
    }
}
