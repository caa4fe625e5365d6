import MdocModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Bluetooth LE carrier configuration record, media type `application/vnd.bluetooth.le.oob`
/// (Bluetooth Secure Simple Pairing Using NFC 1.2, section 3): AD structures (Bluetooth Core
/// Specification vol. 3 part C 11, Supplement part A).
///
/// ISO/IEC 18013-5 8.2.2.1 sets the LE Role (`1C`), the 128-bit service UUID (`07`, complete
/// list) and, for mdoc peripheral server mode, perhaps the LE device address (`1B`). The LE
/// role is the sender's own: an mdoc in peripheral server mode is a peripheral (`00`), in
/// central client mode a central (`01`); a reader the other way round. Static handover carries
/// one UUID for every mode offered; in negotiated handover the reader sends the UUID for mdoc
/// central client mode and the mdoc the one for peripheral server mode (8.3.3.1.1.2).
public struct BluetoothLECarrier: Sendable, Hashable {
    /// The ID the toolkit gives the record, as other implementations do: `0`.
    public static let defaultRecordID = "0"
    /// The AD type of the LE Role (Supplement part A 1.17).
    public static let leRoleType: UInt8 = 0x1C
    /// The AD type of the complete list of 128-bit service UUIDs (Supplement part A 1.1).
    public static let complete128BitServiceUUIDsType: UInt8 = 0x07
    /// The AD type of the incomplete list of 128-bit service UUIDs.
    public static let incomplete128BitServiceUUIDsType: UInt8 = 0x06
    /// The AD type of the LE Bluetooth Device Address (Supplement part A 1.16).
    public static let deviceAddressType: UInt8 = 0x1B

    /// Which side of 18013-5 sent the record: the LE role is read from its point of view.
    public enum Sender: Sendable, Hashable {
        /// The mdoc, in a Handover Select message.
        case mdoc
        /// The reader, in a Handover Request message.
        case reader
    }

    /// The LE Role AD value (Supplement part A 1.17).
    public struct LERole: RawRepresentable, Sendable, Hashable {
        public var rawValue: UInt8

        /// The role of value `rawValue`.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: only the peripheral role.
        public static let peripheralOnly = LERole(rawValue: 0)
        /// 1: only the central role.
        public static let centralOnly = LERole(rawValue: 1)
        /// 2: both roles, peripheral preferred.
        public static let peripheralPreferred = LERole(rawValue: 2)
        /// 3: both roles, central preferred.
        public static let centralPreferred = LERole(rawValue: 3)
    }

    /// One AD structure.
    public struct Structure: Sendable, Hashable {
        /// The AD type.
        public var type: UInt8
        /// The data after the type.
        public var data: [UInt8]

        /// A structure of `type` holding `data` (at most 254 bytes).
        public init(type: UInt8, data: [UInt8]) {
            precondition(data.count <= 254, "AD structure of \(data.count) bytes")
            self.type = type
            self.data = data
        }
    }

    /// The AD structures, in order.
    public var structures: [Structure]
    /// The ID of the record, which an Alternative Carrier record refers to: each carrier record
    /// of a message needs its own.
    public var recordID = Self.defaultRecordID

    /// A record of `structures`.
    public init(structures: [Structure]) {
        self.structures = structures
    }

    /// The record 18013-5 8.2.2.1 describes for `options` sent by `sender`: the LE role of
    /// the modes supported (both: `03`), then the UUID when `options` has one and the device
    /// address for peripheral server mode when it has one. Throws
    /// `invalidHandover` when no mode is supported or the two modes have
    /// different UUIDs, which one record cannot carry.
    public init(options: BleOptions, sender: Sender) throws(NFCError) {
        let role: LERole
        switch (options.peripheralServerModeSupported, options.centralClientModeSupported) {
        case (true, true): role = .centralPreferred
        case (true, false): role = sender == .mdoc ? .peripheralOnly : .centralOnly
        case (false, true): role = sender == .mdoc ? .centralOnly : .peripheralOnly
        case (false, false): throw NFCError(.invalidHandover, "BLE options that support neither mode")
        }
        var uuid: UUID?
        switch (options.peripheralServerModeSupported ? options.peripheralServerModeUUID : nil,
                options.centralClientModeSupported ? options.centralClientModeUUID : nil) {
        case (let server?, let client?):
            guard server == client else {
                throw NFCError(.invalidHandover, "one BLE carrier record carries one UUID for both modes, the options have two")
            }
            uuid = server
        case (let server?, nil): uuid = server
        case (nil, let client?): uuid = client
        case (nil, nil): uuid = nil
        }
        var structures = [Structure(type: Self.leRoleType, data: [role.rawValue])]
        if let uuid {
            structures.append(Structure(type: Self.complete128BitServiceUUIDsType, data: Self.littleEndianBytes(uuid)))
        }
        if options.peripheralServerModeSupported, let address = options.mdocBLEDeviceAddress,
           address.count == BleOptions.deviceAddressByteCount {
            // The address is sent least significant byte first, then its type: public (0).
            structures.append(Structure(type: Self.deviceAddressType, data: address.reversed() + [0x00]))
        }
        self.structures = structures
    }

    /// Reads the AD structures of a record's payload: each a length of at least 1, then the
    /// type and the data, none running past the end.
    public init(payload: [UInt8]) throws(NFCError) {
        var structures: [Structure] = []
        var offset = 0
        while offset < payload.count {
            let length = Int(payload[offset])
            guard length > 0 else {
                throw NFCError(.malformed, "an AD structure of length 0", offset: offset)
            }
            guard payload.count - offset - 1 >= length else {
                throw NFCError(.truncated, "an AD structure declares \(length) bytes, \(payload.count - offset - 1) follow", offset: offset)
            }
            structures.append(Structure(type: payload[offset + 1], data: Array(payload[offset + 2..<offset + 1 + length])))
            offset += 1 + length
        }
        self.structures = structures
    }

    /// The payload: the AD structures.
    public var payload: [UInt8] {
        structures.flatMap { [UInt8($0.data.count + 1), $0.type] + $0.data }
    }

    /// The record, with the ID ``recordID``.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .mediaType, type: Array(NDEFRecord.bluetoothLEOOBType.utf8),
                   id: Array(recordID.utf8), payload: payload)
    }

    /// The LE role, when the record has exactly one one-byte LE Role structure.
    public var leRole: LERole? {
        let roles = structures.filter { $0.type == Self.leRoleType }
        guard roles.count == 1, roles[0].data.count == 1 else { return nil }
        return LERole(rawValue: roles[0].data[0])
    }

    /// The 128-bit service UUIDs of the complete and incomplete lists, in order.
    public var serviceUUIDs: [UUID] {
        structures.filter { $0.type == Self.complete128BitServiceUUIDsType || $0.type == Self.incomplete128BitServiceUUIDsType }
            .flatMap { structure -> [UUID] in
                guard structure.data.count % 16 == 0 else { return [] }
                return stride(from: 0, to: structure.data.count, by: 16).map { start in
                    let bytes = Array(structure.data[start..<start + 16].reversed())
                    return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                                       bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
                }
            }
    }

    /// The LE device address, most significant byte first, when the record has one: its AD
    /// structure holds 6 bytes least significant first and the address type (some
    /// implementations leave the type out).
    public var deviceAddress: [UInt8]? {
        guard let structure = structures.first(where: { $0.type == Self.deviceAddressType }),
              structure.data.count == 7 || structure.data.count == 6 else { return nil }
        return Array(structure.data.prefix(6).reversed())
    }

    /// The record as the BLE retrieval options of 18013-5 8.2.1.1, read from the point of
    /// view of `sender`: the modes of the LE role, the first service UUID for each mode
    /// supported, and the address for peripheral server mode. Throws
    /// `invalidHandover` when the record has no valid LE role.
    public func options(sender: Sender) throws(NFCError) -> BleOptions {
        guard let role = leRole, role.rawValue <= LERole.centralPreferred.rawValue else {
            throw NFCError(.invalidHandover, "the BLE carrier record has no valid LE role")
        }
        let server: Bool
        let client: Bool
        switch (role, sender) {
        case (.peripheralOnly, .mdoc), (.centralOnly, .reader): (server, client) = (true, false)
        case (.centralOnly, .mdoc), (.peripheralOnly, .reader): (server, client) = (false, true)
        default: (server, client) = (true, true)
        }
        let uuid = serviceUUIDs.first
        return BleOptions(
            peripheralServerModeSupported: server, centralClientModeSupported: client,
            peripheralServerModeUUID: server ? uuid : nil, centralClientModeUUID: client ? uuid : nil,
            mdocBLEDeviceAddress: server ? deviceAddress : nil)
    }

    /// A UUID's 16 bytes least significant first, as AD structures hold them.
    private static func littleEndianBytes(_ uuid: UUID) -> [UInt8] {
        let u = uuid.uuid
        return [u.15, u.14, u.13, u.12, u.11, u.10, u.9, u.8, u.7, u.6, u.5, u.4, u.3, u.2, u.1, u.0]
    }
}
