#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MdocBLE

/// Advertising or scan response data: a sequence of AD structures, each a length octet, an AD
/// type and data (Bluetooth Core Vol 3 Part C 11; AD types in the Core Specification
/// Supplement Part A and the Assigned Numbers).
public struct AdvertisingData: Sendable, Hashable {
    /// The most octets of legacy advertising or scan response data (Core Vol 4 Part E 7.8.7).
    public static let maximumLegacyLength = 31

    /// One AD structure.
    public struct Structure: Sendable, Hashable {
        /// The AD type (Assigned Numbers 2.3).
        public let type: UInt8
        /// The data after the type octet.
        public let data: [UInt8]

        /// A structure of `type` holding `data`.
        public init(type: UInt8, data: [UInt8]) {
            self.type = type
            self.data = data
        }
    }

    /// The AD type of Flags (Supplement Part A 1.3).
    public static let flagsType: UInt8 = 0x01
    /// The AD type of an incomplete list of 128-bit service UUIDs (Supplement Part A 1.1).
    public static let incomplete128BitServiceUUIDsType: UInt8 = 0x06
    /// The AD type of a complete list of 128-bit service UUIDs (Supplement Part A 1.1).
    public static let complete128BitServiceUUIDsType: UInt8 = 0x07
    /// The AD type of a shortened local name (Supplement Part A 1.2).
    public static let shortenedLocalNameType: UInt8 = 0x08
    /// The AD type of a complete local name (Supplement Part A 1.2).
    public static let completeLocalNameType: UInt8 = 0x09
    /// The Flags value of a connectable LE-only peripheral: LE General Discoverable Mode, BR/EDR
    /// Not Supported (Supplement Part A 1.3; Core Vol 3 Part C 9.2.4).
    public static let generalDiscoverableLEOnly: UInt8 = 0x06

    /// The AD structures, in order.
    public let structures: [Structure]

    /// Data made of `structures`.
    public init(structures: [Structure]) {
        self.structures = structures
    }

    /// What an ISO/IEC 18013-5 GATT server advertises (Table A.1, 8.3.3.1.1.4): the Flags of an
    /// LE-only, generally discoverable device and the complete list holding the service UUID
    /// from the engagement, 21 octets in all.
    public static func advertising(serviceUUID: UUID) -> AdvertisingData {
        AdvertisingData(structures: [
            Structure(type: flagsType, data: [generalDiscoverableLEOnly]),
            Structure(type: complete128BitServiceUUIDsType, data: BluetoothUUID(serviceUUID).longLittleEndianBytes),
        ])
    }

    /// Parses received data. A zero length octet ends the significant part (the rest is
    /// padding, Core Vol 3 Part C 11). Throws `malformedPacket` when a structure runs past the
    /// end.
    public init(bytes: [UInt8]) throws(BLEError) {
        var structures: [Structure] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            if length == 0 { break }
            guard offset + 1 + length <= bytes.count else {
                throw BLEError(.malformedPacket,
                               "advertising data: the AD structure at offset \(offset) declares \(length) octets, only \(bytes.count - offset - 1) follow")
            }
            structures.append(Structure(type: bytes[offset + 1], data: Array(bytes[offset + 2..<offset + 1 + length])))
            offset += 1 + length
        }
        self.structures = structures
    }

    /// The encoded structures.
    public var bytes: [UInt8] {
        structures.flatMap { [UInt8($0.data.count + 1), $0.type] + $0.data }
    }

    /// Every 128-bit service UUID listed, complete or incomplete lists alike.
    public var serviceUUIDs: [UUID] {
        structures.lazy
            .filter { $0.type == Self.complete128BitServiceUUIDsType || $0.type == Self.incomplete128BitServiceUUIDsType }
            .flatMap { structure in
                stride(from: 0, to: structure.data.count - 15, by: 16).compactMap {
                    BluetoothUUID(littleEndianBytes: structure.data[$0..<$0 + 16])?.uuid
                }
            }
    }

    /// The complete, else the shortened, local name.
    public var localName: String? {
        let name = structures.first { $0.type == Self.completeLocalNameType }
            ?? structures.first { $0.type == Self.shortenedLocalNameType }
        return name.map { String(decoding: $0.data, as: UTF8.self) }
    }
}
