import MdocBLE

/// One HCI packet as it crosses the host–controller interface, with the H4 packet indicator
/// that frames it on UART and TCP streams and on the Linux HCI user channel (Bluetooth Core
/// Vol 4 Part A 2, Part E 5.4).
public enum HCIPacket: Sendable, Hashable {
    /// A command, host to controller.
    case command(HCICommand)
    /// ACL data, either way.
    case aclData(HCIACLData)
    /// An event, controller to host: its code and parameters, decoded by ``HCIEvent``.
    case event(code: UInt8, parameters: [UInt8])
    /// Synchronous or ISO data, which an LE data host does not use: kept undecoded.
    case other(HCIPacketIndicator, [UInt8])

    /// Decodes an H4 packet: the indicator octet, then the packet. Throws `malformedPacket`
    /// when the indicator is unknown or a length does not match.
    public init(h4 bytes: [UInt8]) throws(BLEError) {
        guard let first = bytes.first, let indicator = HCIPacketIndicator(rawValue: first) else {
            throw BLEError(.malformedPacket, "an H4 packet starts with an indicator 0x01 to 0x05; got \(bytes.first.map { "0x" + String($0, radix: 16) } ?? "nothing")")
        }
        let packet = Array(bytes.dropFirst())
        switch indicator {
        case .command:
            self = .command(try HCICommand(packet: packet))
        case .aclData:
            self = .aclData(try HCIACLData(packet: packet))
        case .event:
            var reader = PacketReader(packet, packetName: "HCI event")
            let code = try reader.uint8()
            let length = Int(try reader.uint8())
            guard reader.remaining == length else {
                throw BLEError(.malformedPacket, "HCI event 0x\(String(code, radix: 16)): declares \(length) parameter octets, carries \(reader.remaining)")
            }
            self = .event(code: code, parameters: reader.rest())
        case .synchronousData, .isoData:
            self = .other(indicator, packet)
        }
    }

    /// The indicator and the packet, as H4 frames it.
    public var h4Bytes: [UInt8] {
        switch self {
        case .command(let command): return [HCIPacketIndicator.command.rawValue] + command.packet
        case .aclData(let data): return [HCIPacketIndicator.aclData.rawValue] + data.packet
        case .event(let code, let parameters):
            return [HCIPacketIndicator.event.rawValue, code, UInt8(parameters.count)] + parameters
        case .other(let indicator, let packet): return [indicator.rawValue] + packet
        }
    }

    /// Whether the packet is a command or an event (btsnoop records mark these, Core Vol 4
    /// Part E 5.4), as opposed to data.
    public var isCommandOrEvent: Bool {
        switch self {
        case .command, .event: return true
        case .aclData, .other: return false
        }
    }
}
