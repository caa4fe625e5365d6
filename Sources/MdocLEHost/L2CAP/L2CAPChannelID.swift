import MdocBLE

/// The fixed L2CAP channels of an LE link (Bluetooth Core Vol 3 Part A 2.1, Table 2.3).
public enum L2CAPChannelID: Sendable {
    /// The Attribute Protocol: ATT PDUs (Core Vol 3 Part F).
    public static let attributeProtocol: UInt16 = 0x0004
    /// LE signalling: connection parameter updates, credit-based channels (Core Vol 3 Part A 4).
    public static let leSignaling: UInt16 = 0x0005
    /// The Security Manager Protocol (Core Vol 3 Part H 3).
    public static let securityManager: UInt16 = 0x0006
}
