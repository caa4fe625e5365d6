import MdocBLE

/// An LE link was made or failed: the LE Connection Complete event, or the LE Enhanced
/// Connection Complete event that replaces it when enabled (Bluetooth Core Vol 4 Part E
/// 7.7.65.1, 7.7.65.10).
public struct LEConnectionComplete: Sendable, Hashable {
    /// The local device's role on the link (Core Vol 4 Part E 7.7.65.1).
    public enum Role: UInt8, Sendable, Hashable {
        /// This device initiated the link (GAP central).
        case central = 0x00
        /// This device advertised and was connected to (GAP peripheral).
        case peripheral = 0x01
    }

    /// Success, or why the connection failed (Unknown Connection Identifier after a cancel).
    public let status: HCIStatus
    /// The connection handle for ACL data and later commands.
    public let handle: UInt16
    /// This device's role.
    public let role: Role
    /// The peer's address.
    public let peerAddress: BluetoothAddress
    /// The connection interval in units of 1.25 ms.
    public let connectionInterval: UInt16
    /// The peripheral latency in connection events.
    public let peripheralLatency: UInt16
    /// The supervision timeout in units of 10 ms.
    public let supervisionTimeout: UInt16

    /// Decodes the parameters after the subevent code; `enhanced` for subevent 0x0A, which
    /// carries the local and peer resolvable private addresses before the interval.
    init(parameters reader: inout PacketReader, enhanced: Bool) throws(BLEError) {
        status = HCIStatus(rawValue: try reader.uint8())
        handle = try reader.uint16() & 0x0FFF
        let roleValue = try reader.uint8()
        guard let role = Role(rawValue: roleValue) else {
            throw BLEError(.malformedPacket, "\(reader.packetName): role 0x\(String(roleValue, radix: 16)) is neither central nor peripheral")
        }
        self.role = role
        let typeValue = try reader.uint8()
        let type = BluetoothAddress.AddressType(rawValue: typeValue) ?? .random
        peerAddress = BluetoothAddress(hciBytes: try reader.bytes(6), type: type)
        if enhanced {
            _ = try reader.bytes(12)  // Local_Resolvable_Private_Address, Peer_Resolvable_Private_Address
        }
        connectionInterval = try reader.uint16()
        peripheralLatency = try reader.uint16()
        supervisionTimeout = try reader.uint16()
        _ = try reader.uint8()  // Central_Clock_Accuracy
    }
}
