import MdocBLE

/// The commands this LE host sends, with their parameters encoded as Bluetooth Core Vol 4
/// Part E 7 lays them out.
extension HCICommand {
    /// Reset (7.3.2).
    public static var reset: HCICommand { HCICommand(.reset) }

    /// Set Event Mask (7.3.1): which events the controller may send.
    public static func setEventMask(_ mask: UInt64) -> HCICommand {
        var writer = PacketWriter()
        writer.uint64(mask)
        return HCICommand(.setEventMask, parameters: writer.bytes)
    }

    /// LE Set Event Mask (7.8.1): which LE Meta subevents the controller may send.
    public static func leSetEventMask(_ mask: UInt64) -> HCICommand {
        var writer = PacketWriter()
        writer.uint64(mask)
        return HCICommand(.leSetEventMask, parameters: writer.bytes)
    }

    /// Write LE Host Support (7.3.79): LE Supported (Host) on, for dual-mode controllers.
    public static var writeLEHostSupport: HCICommand { HCICommand(.writeLEHostSupport, parameters: [0x01, 0x00]) }

    /// Read Local Version Information (7.4.1).
    public static var readLocalVersionInformation: HCICommand { HCICommand(.readLocalVersionInformation) }
    /// Read Buffer Size (7.4.5): the shared ACL buffers, when LE has none of its own.
    public static var readBufferSize: HCICommand { HCICommand(.readBufferSize) }
    /// Read BD_ADDR (7.4.6).
    public static var readBDADDR: HCICommand { HCICommand(.readBDADDR) }
    /// LE Read Buffer Size (7.8.2).
    public static var leReadBufferSize: HCICommand { HCICommand(.leReadBufferSize) }
    /// LE Read Local Supported Features (7.8.3).
    public static var leReadLocalSupportedFeatures: HCICommand { HCICommand(.leReadLocalSupportedFeatures) }

    /// LE Set Random Address (7.8.4).
    public static func leSetRandomAddress(_ address: BluetoothAddress) -> HCICommand {
        HCICommand(.leSetRandomAddress, parameters: address.hciBytes)
    }

    /// LE Set Advertising Parameters (7.8.5) for connectable undirected advertising (ADV_IND)
    /// every `intervalMin`…`intervalMax` × 0.625 ms on all three channels, from the address of
    /// `ownAddressType`, without a filter.
    public static func leSetAdvertisingParameters(
        intervalMin: UInt16, intervalMax: UInt16, ownAddressType: BluetoothAddress.AddressType
    ) -> HCICommand {
        var writer = PacketWriter()
        writer.uint16(intervalMin)
        writer.uint16(intervalMax)
        writer.uint8(0x00)                       // Advertising_Type: ADV_IND
        writer.uint8(ownAddressType.rawValue)
        writer.uint8(0x00)                       // Peer_Address_Type (unused for ADV_IND)
        writer.append([UInt8](repeating: 0, count: 6))
        writer.uint8(0x07)                       // Advertising_Channel_Map: 37, 38 and 39
        writer.uint8(0x00)                       // Advertising_Filter_Policy: anyone
        return HCICommand(.leSetAdvertisingParameters, parameters: writer.bytes)
    }

    /// LE Set Advertising Data (7.8.7): the length, then the data padded to 31 octets. Nil when
    /// `data` exceeds ``AdvertisingData/maximumLegacyLength``.
    public static func leSetAdvertisingData(_ data: AdvertisingData) -> HCICommand? {
        legacyData(.leSetAdvertisingData, data)
    }

    /// LE Set Scan Response Data (7.8.8), laid out like the advertising data.
    public static func leSetScanResponseData(_ data: AdvertisingData) -> HCICommand? {
        legacyData(.leSetScanResponseData, data)
    }

    /// LE Set Advertising Enable (7.8.9).
    public static func leSetAdvertisingEnable(_ enable: Bool) -> HCICommand {
        HCICommand(.leSetAdvertisingEnable, parameters: [enable ? 0x01 : 0x00])
    }

    /// LE Set Scan Parameters (7.8.10): passive scanning, listening `window` every `interval`
    /// (× 0.625 ms), from the address of `ownAddressType`, accepting every advertiser.
    public static func leSetScanParameters(
        interval: UInt16, window: UInt16, ownAddressType: BluetoothAddress.AddressType
    ) -> HCICommand {
        var writer = PacketWriter()
        writer.uint8(0x00)                       // LE_Scan_Type: passive
        writer.uint16(interval)
        writer.uint16(window)
        writer.uint8(ownAddressType.rawValue)
        writer.uint8(0x00)                       // Scanning_Filter_Policy: all advertisements
        return HCICommand(.leSetScanParameters, parameters: writer.bytes)
    }

    /// LE Set Scan Enable (7.8.11), without duplicate filtering so RSSI stays current.
    public static func leSetScanEnable(_ enable: Bool) -> HCICommand {
        HCICommand(.leSetScanEnable, parameters: [enable ? 0x01 : 0x00, 0x00])
    }

    /// LE Create Connection (7.8.12) to `peer`, from the address of `ownAddressType`, with the
    /// connection parameters of `parameters`.
    public static func leCreateConnection(
        to peer: BluetoothAddress, ownAddressType: BluetoothAddress.AddressType, parameters: LEConnectionParameters
    ) -> HCICommand {
        var writer = PacketWriter()
        writer.uint16(parameters.scanInterval)
        writer.uint16(parameters.scanWindow)
        writer.uint8(0x00)                       // Initiator_Filter_Policy: use the peer address
        writer.uint8(peer.type.connectable.rawValue)
        writer.append(peer.hciBytes)
        writer.uint8(ownAddressType.rawValue)
        parameters.write(to: &writer)
        return HCICommand(.leCreateConnection, parameters: writer.bytes)
    }

    /// LE Create Connection Cancel (7.8.13).
    public static var leCreateConnectionCancel: HCICommand { HCICommand(.leCreateConnectionCancel) }

    /// LE Connection Update (7.8.18) of `handle` to `parameters`.
    public static func leConnectionUpdate(handle: UInt16, parameters: LEConnectionParameters) -> HCICommand {
        var writer = PacketWriter()
        writer.uint16(handle)
        parameters.write(to: &writer)
        return HCICommand(.leConnectionUpdate, parameters: writer.bytes)
    }

    /// Disconnect (7.1.6) `handle` with `reason`.
    public static func disconnect(handle: UInt16, reason: HCIStatus) -> HCICommand {
        var writer = PacketWriter()
        writer.uint16(handle)
        writer.uint8(reason.rawValue)
        return HCICommand(.disconnect, parameters: writer.bytes)
    }

    /// LE Write Suggested Default Data Length (7.8.35): the largest link-layer payload, 251
    /// octets in 2120 µs, for new connections of controllers with Data Length Extension.
    public static var leWriteSuggestedDefaultDataLength: HCICommand {
        var writer = PacketWriter()
        writer.uint16(251)
        writer.uint16(2120)
        return HCICommand(.leWriteSuggestedDefaultDataLength, parameters: writer.bytes)
    }

    private static func legacyData(_ opcode: HCIOpcode, _ data: AdvertisingData) -> HCICommand? {
        let bytes = data.bytes
        guard bytes.count <= AdvertisingData.maximumLegacyLength else { return nil }
        return HCICommand(opcode, parameters: [UInt8(bytes.count)] + bytes
            + [UInt8](repeating: 0, count: AdvertisingData.maximumLegacyLength - bytes.count))
    }
}
