import MdocBLE

/// One advertisement or scan response a scanning controller received: from the LE Advertising
/// Report event (legacy, Bluetooth Core Vol 4 Part E 7.7.65.2) or the LE Extended Advertising
/// Report event (7.7.65.13), which controllers supporting extended advertising send even for
/// legacy scanning (Bumble does).
public struct LEAdvertisingReport: Sendable, Hashable {
    /// The advertiser's address.
    public let address: BluetoothAddress
    /// Whether the advertiser accepts connections (ADV_IND, or the Connectable bit).
    public let isConnectable: Bool
    /// Whether this is a scan response rather than advertising data.
    public let isScanResponse: Bool
    /// The received signal strength in dBm; nil when the controller could not tell (127).
    public let rssi: Int?
    /// The advertising or scan response data.
    public let data: [UInt8]

    /// The legacy event types (Core Vol 4 Part E 7.7.65.2): ADV_IND, ADV_DIRECT_IND,
    /// ADV_SCAN_IND, ADV_NONCONN_IND, SCAN_RSP.
    private static let advInd: UInt8 = 0x00, advDirectInd: UInt8 = 0x01, scanResponse: UInt8 = 0x04

    /// Decodes the reports of a legacy LE Advertising Report (after the subevent code): each is
    /// event type, address type, address, data length, data, RSSI.
    static func legacyReports(_ reader: inout PacketReader) throws(BLEError) -> [LEAdvertisingReport] {
        let count = Int(try reader.uint8())
        var reports: [LEAdvertisingReport] = []
        for _ in 0..<count {
            let eventType = try reader.uint8()
            let type = BluetoothAddress.AddressType(rawValue: try reader.uint8()) ?? .random
            let address = BluetoothAddress(hciBytes: try reader.bytes(6), type: type)
            let data = try reader.bytes(Int(try reader.uint8()))
            let rssi = try reader.int8()
            reports.append(LEAdvertisingReport(
                address: address, isConnectable: eventType == advInd || eventType == advDirectInd,
                isScanResponse: eventType == scanResponse, rssi: rssi == 127 ? nil : Int(rssi), data: data))
        }
        return reports
    }

    /// Decodes the reports of an LE Extended Advertising Report (after the subevent code): each
    /// is event type (2), address type, address, primary and secondary PHY, SID, Tx power, RSSI,
    /// periodic advertising interval (2), direct address type and address, data length, data.
    static func extendedReports(_ reader: inout PacketReader) throws(BLEError) -> [LEAdvertisingReport] {
        let count = Int(try reader.uint8())
        var reports: [LEAdvertisingReport] = []
        for _ in 0..<count {
            let eventType = try reader.uint16()
            let typeValue = try reader.uint8()
            let address = BluetoothAddress(hciBytes: try reader.bytes(6),
                                           type: BluetoothAddress.AddressType(rawValue: typeValue) ?? .random)
            _ = try reader.bytes(4)  // Primary_PHY, Secondary_PHY, Advertising_SID, TX_Power
            let rssi = try reader.int8()
            _ = try reader.bytes(9)  // Periodic_Advertising_Interval, Direct_Address_Type, Direct_Address
            let data = try reader.bytes(Int(try reader.uint8()))
            reports.append(LEAdvertisingReport(
                address: address, isConnectable: eventType & 0x0001 != 0, isScanResponse: eventType & 0x0008 != 0,
                rssi: rssi == 127 ? nil : Int(rssi), data: data))
        }
        return reports
    }
}
