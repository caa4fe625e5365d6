#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Bluetooth UUID in its 16-bit or 128-bit form (Bluetooth Core Vol 3 Part B 2.5.1).
///
/// A 16-bit UUID is an alias of the 128-bit UUID `0000xxxx-0000-1000-8000-00805F9B34FB` (the
/// Bluetooth Base UUID). Values are kept in their shortest form, so a 128-bit UUID built on the
/// base with a 16-bit alias equals that alias and is sent in 2 bytes.
public struct BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    /// The Bluetooth Base UUID, big-endian (Core Vol 3 Part B 2.5.1).
    static let baseUUIDBytes: [UInt8] = [
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
    ]

    private enum Storage: Hashable {
        case short(UInt16)
        /// The 16 bytes in RFC 4122 (big-endian) order.
        case long([UInt8])
    }

    private let storage: Storage

    /// The 16-bit UUID `value`.
    public init(uint16 value: UInt16) {
        storage = .short(value)
    }

    /// The UUID `uuid`, kept as its 16-bit alias when it is built on the Bluetooth Base UUID.
    public init(_ uuid: UUID) {
        self.init(bigEndianBytes: withUnsafeBytes(of: uuid.uuid) { Array($0) })
    }

    /// Decodes a UUID as ATT sends it: 2 or 16 bytes, least significant byte first
    /// (Core Vol 3 Part F 3.2.1, Part B 2.5.1). Nil for any other length.
    public init?(littleEndianBytes: some Collection<UInt8>) {
        let bytes = Array(littleEndianBytes)
        switch bytes.count {
        case 2:
            self.init(uint16: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 16:
            self.init(bigEndianBytes: bytes.reversed())
        default:
            return nil
        }
    }

    /// 16 big-endian bytes: the alias when they lie on the base UUID, else the full value.
    private init(bigEndianBytes bytes: [UInt8]) {
        if bytes[0] == 0, bytes[1] == 0, bytes[4...] == Self.baseUUIDBytes[4...] {
            storage = .short(UInt16(bytes[2]) << 8 | UInt16(bytes[3]))
        } else {
            storage = .long(bytes)
        }
    }

    /// The 16-bit value when this UUID has a 16-bit alias.
    public var uint16: UInt16? {
        if case .short(let value) = storage { return value }
        return nil
    }

    /// The UUID as ATT PDUs carry it: 2 bytes for a 16-bit UUID, else 16 bytes, least
    /// significant byte first (Core Vol 3 Part B 2.5.1).
    public var littleEndianBytes: [UInt8] {
        switch storage {
        case .short(let value): [UInt8(value & 0xFF), UInt8(value >> 8)]
        case .long(let bytes): bytes.reversed()
        }
    }

    /// The 128-bit form, as 16 little-endian bytes (a 16-bit UUID expanded on the base UUID).
    package var longLittleEndianBytes: [UInt8] { bigEndianBytes.reversed() }

    private var bigEndianBytes: [UInt8] {
        switch storage {
        case .short(let value):
            var bytes = Self.baseUUIDBytes
            bytes[2] = UInt8(value >> 8)
            bytes[3] = UInt8(value & 0xFF)
            return bytes
        case .long(let bytes):
            return bytes
        }
    }

    /// The 128-bit form (a 16-bit UUID expanded on the Bluetooth Base UUID).
    public var uuid: UUID {
        let b = bigEndianBytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// `0x2800` for a 16-bit UUID, the canonical upper-case string for a 128-bit one.
    public var description: String {
        switch storage {
        case .short(let value):
            let hex = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        case .long:
            return uuid.uuidString
        }
    }

    /// «Primary Service» attribute type (Core Vol 3 Part G 3.1; Assigned Numbers 3.5).
    public static let primaryService = BluetoothUUID(uint16: 0x2800)
    /// «Secondary Service» attribute type (Core Vol 3 Part G 3.1).
    public static let secondaryService = BluetoothUUID(uint16: 0x2801)
    /// «Characteristic» declaration attribute type (Core Vol 3 Part G 3.3.1).
    public static let characteristic = BluetoothUUID(uint16: 0x2803)
    /// Client Characteristic Configuration descriptor type (Core Vol 3 Part G 3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(uint16: 0x2902)
}
