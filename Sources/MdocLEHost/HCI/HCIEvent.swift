import MdocBLE

/// The HCI events this host acts on, decoded from an event packet (Bluetooth Core Vol 4 Part E
/// 7.7); every other event is kept as `.other` or `.leOther`.
public enum HCIEvent: Sendable, Hashable {
    /// A command finished (7.7.14): its return parameters, whose first octet is the status for
    /// the commands this host sends.
    case commandComplete(numberOfCommandPackets: UInt8, opcode: HCIOpcode, returnParameters: [UInt8])
    /// A command was accepted or refused before it runs (7.7.15).
    case commandStatus(status: HCIStatus, numberOfCommandPackets: UInt8, opcode: HCIOpcode)
    /// A link ended (7.7.5).
    case disconnectionComplete(status: HCIStatus, handle: UInt16, reason: HCIStatus)
    /// The controller sent or flushed this many ACL packets per handle, freeing its buffers (7.7.19).
    case numberOfCompletedPackets([CompletedPackets])
    /// The controller failed (7.7.16).
    case hardwareError(code: UInt8)
    /// The controller dropped data for lack of buffers (7.7.26).
    case dataBufferOverflow(linkType: UInt8)
    /// LE Connection Complete or LE Enhanced Connection Complete (7.7.65.1, 7.7.65.10).
    case leConnectionComplete(LEConnectionComplete)
    /// LE Advertising Report or LE Extended Advertising Report (7.7.65.2, 7.7.65.13).
    case leAdvertisingReports([LEAdvertisingReport])
    /// The connection parameters changed (7.7.65.3).
    case leConnectionUpdateComplete(status: HCIStatus, handle: UInt16, connectionInterval: UInt16,
                                    peripheralLatency: UInt16, supervisionTimeout: UInt16)
    /// The link layer's maximum payload changed (7.7.65.7).
    case leDataLengthChange(handle: UInt16, maximumTxOctets: UInt16, maximumRxOctets: UInt16)
    /// Any other LE Meta subevent.
    case leOther(subevent: UInt8, parameters: [UInt8])
    /// Any other event.
    case other(code: UInt8, parameters: [UInt8])

    /// One entry of Number Of Completed Packets.
    public struct CompletedPackets: Sendable, Hashable {
        /// The connection handle.
        public let handle: UInt16
        /// How many of its packets completed.
        public let count: Int
    }

    // Event codes (Core Vol 4 Part E 7.7).
    static let disconnectionCompleteCode: UInt8 = 0x05
    static let commandCompleteCode: UInt8 = 0x0E
    static let commandStatusCode: UInt8 = 0x0F
    static let hardwareErrorCode: UInt8 = 0x10
    static let numberOfCompletedPacketsCode: UInt8 = 0x13
    static let dataBufferOverflowCode: UInt8 = 0x1A
    static let leMetaCode: UInt8 = 0x3E

    // LE Meta subevent codes (Core Vol 4 Part E 7.7.65).
    static let leConnectionCompleteSubevent: UInt8 = 0x01
    static let leAdvertisingReportSubevent: UInt8 = 0x02
    static let leConnectionUpdateCompleteSubevent: UInt8 = 0x03
    static let leDataLengthChangeSubevent: UInt8 = 0x07
    static let leEnhancedConnectionCompleteSubevent: UInt8 = 0x0A
    static let leExtendedAdvertisingReportSubevent: UInt8 = 0x0D

    /// Decodes event `code` with `parameters`. Throws `malformedPacket` when the parameters
    /// are shorter than the event's layout.
    public init(code: UInt8, parameters: [UInt8]) throws(BLEError) {
        var reader = PacketReader(parameters, packetName: Self.name(code: code, parameters: parameters))
        switch code {
        case Self.commandCompleteCode:
            self = .commandComplete(numberOfCommandPackets: try reader.uint8(), opcode: HCIOpcode(rawValue: try reader.uint16()),
                                    returnParameters: reader.rest())
        case Self.commandStatusCode:
            self = .commandStatus(status: HCIStatus(rawValue: try reader.uint8()), numberOfCommandPackets: try reader.uint8(),
                                  opcode: HCIOpcode(rawValue: try reader.uint16()))
        case Self.disconnectionCompleteCode:
            self = .disconnectionComplete(status: HCIStatus(rawValue: try reader.uint8()), handle: try reader.uint16() & 0x0FFF,
                                          reason: HCIStatus(rawValue: try reader.uint8()))
        case Self.numberOfCompletedPacketsCode:
            let count = Int(try reader.uint8())
            var entries: [CompletedPackets] = []
            for _ in 0..<count {
                entries.append(CompletedPackets(handle: try reader.uint16() & 0x0FFF, count: Int(try reader.uint16())))
            }
            self = .numberOfCompletedPackets(entries)
        case Self.hardwareErrorCode:
            self = .hardwareError(code: try reader.uint8())
        case Self.dataBufferOverflowCode:
            self = .dataBufferOverflow(linkType: try reader.uint8())
        case Self.leMetaCode:
            self = try Self.leMeta(&reader)
        default:
            self = .other(code: code, parameters: parameters)
        }
    }

    private static func leMeta(_ reader: inout PacketReader) throws(BLEError) -> HCIEvent {
        let subevent = try reader.uint8()
        switch subevent {
        case leConnectionCompleteSubevent, leEnhancedConnectionCompleteSubevent:
            return .leConnectionComplete(try LEConnectionComplete(parameters: &reader,
                                                                  enhanced: subevent == leEnhancedConnectionCompleteSubevent))
        case leAdvertisingReportSubevent:
            return .leAdvertisingReports(try LEAdvertisingReport.legacyReports(&reader))
        case leExtendedAdvertisingReportSubevent:
            return .leAdvertisingReports(try LEAdvertisingReport.extendedReports(&reader))
        case leConnectionUpdateCompleteSubevent:
            return .leConnectionUpdateComplete(status: HCIStatus(rawValue: try reader.uint8()), handle: try reader.uint16() & 0x0FFF,
                                               connectionInterval: try reader.uint16(), peripheralLatency: try reader.uint16(),
                                               supervisionTimeout: try reader.uint16())
        case leDataLengthChangeSubevent:
            let handle = try reader.uint16() & 0x0FFF
            let maximumTxOctets = try reader.uint16()
            _ = try reader.uint16()  // Max_TX_Time
            let maximumRxOctets = try reader.uint16()
            return .leDataLengthChange(handle: handle, maximumTxOctets: maximumTxOctets, maximumRxOctets: maximumRxOctets)
        default:
            return .leOther(subevent: subevent, parameters: reader.rest())
        }
    }

    /// The event's name for messages.
    private static func name(code: UInt8, parameters: [UInt8]) -> String {
        switch code {
        case commandCompleteCode: return "Command Complete event"
        case commandStatusCode: return "Command Status event"
        case disconnectionCompleteCode: return "Disconnection Complete event"
        case numberOfCompletedPacketsCode: return "Number Of Completed Packets event"
        case hardwareErrorCode: return "Hardware Error event"
        case dataBufferOverflowCode: return "Data Buffer Overflow event"
        case leMetaCode:
            switch parameters.first {
            case leConnectionCompleteSubevent: return "LE Connection Complete event"
            case leEnhancedConnectionCompleteSubevent: return "LE Enhanced Connection Complete event"
            case leAdvertisingReportSubevent: return "LE Advertising Report event"
            case leExtendedAdvertisingReportSubevent: return "LE Extended Advertising Report event"
            case leConnectionUpdateCompleteSubevent: return "LE Connection Update Complete event"
            case leDataLengthChangeSubevent: return "LE Data Length Change event"
            default: return "LE Meta event"
            }
        default: return "HCI event 0x" + String(code, radix: 16)
        }
    }
}
