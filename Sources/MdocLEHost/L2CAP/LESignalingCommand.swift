import MdocBLE

/// A command on the LE signalling channel (CID 0x0005): code, identifier, length, data
/// (Bluetooth Core Vol 3 Part A 4). This host answers what a GATT-only LE device must: it
/// accepts a peripheral's Connection Parameter Update Request when it is central, refuses
/// credit-based channels, and rejects every other request as not understood.
public struct LESignalingCommand: Sendable, Hashable {
    /// Command Reject (4.1).
    public static let commandRejectCode: UInt8 = 0x01
    /// Connection Parameter Update Request (4.20).
    public static let connectionParameterUpdateRequestCode: UInt8 = 0x12
    /// Connection Parameter Update Response (4.21).
    public static let connectionParameterUpdateResponseCode: UInt8 = 0x13
    /// LE Credit Based Connection Request (4.22).
    public static let leCreditBasedConnectionRequestCode: UInt8 = 0x14
    /// LE Credit Based Connection Response (4.23).
    public static let leCreditBasedConnectionResponseCode: UInt8 = 0x15

    /// The command code.
    public let code: UInt8
    /// The identifier matching a response to its request.
    public let identifier: UInt8
    /// The command's data.
    public let data: [UInt8]

    /// A command of `code` with `identifier` and `data`.
    public init(code: UInt8, identifier: UInt8, data: [UInt8]) {
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    /// Decodes one command (LE signalling frames carry exactly one, Core Vol 3 Part A 4).
    /// Throws `malformedPacket` when the length does not match.
    public init(bytes: [UInt8]) throws(BLEError) {
        var reader = PacketReader(bytes, packetName: "LE signalling command")
        code = try reader.uint8()
        identifier = try reader.uint8()
        let length = Int(try reader.uint16())
        guard reader.remaining == length else {
            throw BLEError(.malformedPacket,
                           "LE signalling command 0x\(String(code, radix: 16)): declares \(length) octets, carries \(reader.remaining)")
        }
        data = reader.rest()
    }

    /// The command as sent.
    public var bytes: [UInt8] {
        [code, identifier, UInt8(data.count & 0xFF), UInt8(data.count >> 8)] + data
    }

    /// The codes of responses, rejects and indications, which are never answered (4, Table
    /// 4.2): Command Reject; the Connection, Configuration, Disconnection, Echo and Information
    /// Responses; the Connection Parameter Update and LE Credit Based Connection Responses; Flow
    /// Control Credit; the Credit Based Connection and Reconfigure Responses.
    static let unansweredCodes: Set<UInt8> = [0x01, 0x03, 0x05, 0x07, 0x09, 0x0B, 0x13, 0x15, 0x16, 0x18, 0x1A]

    /// Whether this is a response, a reject or an indication, which must not be answered (4).
    public var isResponse: Bool { Self.unansweredCodes.contains(code) }

    /// The parameters of a Connection Parameter Update Request: interval min and max, latency,
    /// timeout (4.20); nil when the data is not 8 octets.
    public var requestedParameters: LEConnectionParameters? {
        guard code == Self.connectionParameterUpdateRequestCode, data.count == 8 else { return nil }
        var reader = PacketReader(data, packetName: "Connection Parameter Update Request")
        guard let intervalMin = try? reader.uint16(), let intervalMax = try? reader.uint16(),
              let latency = try? reader.uint16(), let timeout = try? reader.uint16() else { return nil }
        return LEConnectionParameters(scanInterval: LEConnectionParameters.mdocSession.scanInterval,
                                      scanWindow: LEConnectionParameters.mdocSession.scanWindow,
                                      intervalMin: intervalMin, intervalMax: intervalMax,
                                      peripheralLatency: latency, supervisionTimeout: timeout)
    }

    /// The answer this host gives to `self`, received on a link where it has `role`; nil for
    /// responses, which are not answered.
    func answer(as role: LEConnectionComplete.Role) -> LESignalingCommand? {
        if isResponse { return nil }
        switch code {
        case Self.connectionParameterUpdateRequestCode where role == .central:
            // Result 0x0000 accepted, 0x0001 rejected (4.21).
            let accepted = requestedParameters?.isValid ?? false
            return LESignalingCommand(code: Self.connectionParameterUpdateResponseCode, identifier: identifier,
                                      data: [accepted ? 0x00 : 0x01, 0x00])
        case Self.leCreditBasedConnectionRequestCode:
            // Destination CID, MTU, MPS, initial credits 0, result 0x0002 "SPSM not supported" (4.23).
            return LESignalingCommand(code: Self.leCreditBasedConnectionResponseCode, identifier: identifier,
                                      data: [0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00])
        default:
            // Reason 0x0000, command not understood (4.1).
            return LESignalingCommand(code: Self.commandRejectCode, identifier: identifier, data: [0x00, 0x00])
        }
    }
}
