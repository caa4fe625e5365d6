import MdocBLE

/// An HCI Command packet: opcode, parameter total length, parameters (Bluetooth Core Vol 4
/// Part E 5.4.1). The commands this host sends are built by the static functions of
/// `HCICommand+LE.swift`.
public struct HCICommand: Sendable, Hashable, CustomStringConvertible {
    /// The most parameter octets: the length field has one octet (Core Vol 4 Part E 5.4.1).
    public static let maximumParameterLength = 255

    /// Which command.
    public let opcode: HCIOpcode
    /// The parameters, encoded.
    public let parameters: [UInt8]

    /// The command `opcode` with `parameters` (at most ``maximumParameterLength`` octets; the
    /// builders never make more).
    public init(_ opcode: HCIOpcode, parameters: [UInt8] = []) {
        precondition(parameters.count <= Self.maximumParameterLength, "HCI command parameters are at most 255 octets")
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Decodes a command packet without its H4 indicator. Throws `malformedPacket` when the
    /// length does not match.
    public init(packet: [UInt8]) throws(BLEError) {
        var reader = PacketReader(packet, packetName: "HCI command")
        let opcode = HCIOpcode(rawValue: try reader.uint16())
        let length = Int(try reader.uint8())
        guard reader.remaining == length else {
            throw BLEError(.malformedPacket, "\(opcode): declares \(length) parameter octets, carries \(reader.remaining)")
        }
        self.init(opcode, parameters: reader.rest())
    }

    /// The packet without its H4 indicator.
    public var packet: [UInt8] {
        [UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(parameters.count)] + parameters
    }

    /// The command's name.
    public var description: String { opcode.description }
}
