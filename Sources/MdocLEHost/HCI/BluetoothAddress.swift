import MdocBLE

/// A Bluetooth device address with its LE address type (Bluetooth Core Vol 6 Part B 1.3): six
/// octets, kept in the order people write them (most significant first), sent on HCI least
/// significant octet first (Core Vol 4 Part E 5.2).
public struct BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    /// Which kind of LE address (Core Vol 6 Part B 1.3; HCI Address_Type, Core Vol 4 Part E 7.8.12).
    public enum AddressType: UInt8, Sendable, Hashable {
        /// A public device address, assigned by the manufacturer (IEEE).
        case `public` = 0x00
        /// A random device address: static, or private (resolvable or not).
        case random = 0x01
        /// The public identity address of a peer resolved from a private address
        /// (Core Vol 4 Part E 7.7.65.10).
        case publicIdentity = 0x02
        /// The random (static) identity address of a peer resolved from a private address.
        case randomIdentity = 0x03

        /// The type to give LE Create Connection (7.8.12): identity types map to their base type.
        var connectable: AddressType {
            switch self {
            case .public, .publicIdentity: return .public
            case .random, .randomIdentity: return .random
            }
        }
    }

    /// The six octets, most significant first ("C5:A1:B2:C3:D4:E5" is `[0xC5, 0xA1, …]`).
    public let octets: [UInt8]
    /// The address type.
    public let type: AddressType

    /// An address of `type` from six octets, most significant first; nil for another count.
    public init?(octets: [UInt8], type: AddressType) {
        guard octets.count == 6 else { return nil }
        self.octets = octets
        self.type = type
    }

    /// An address of `type` as HCI sends it: six octets, least significant first.
    init(hciBytes: [UInt8], type: AddressType) {
        octets = hciBytes.reversed()
        self.type = type
    }

    /// The octets as HCI sends them, least significant first.
    var hciBytes: [UInt8] { octets.reversed() }

    /// True for 00:00:00:00:00:00, which controllers without a public address report for
    /// Read BD_ADDR (Core Vol 4 Part E 7.4.6).
    public var isZero: Bool { octets.allSatisfy { $0 == 0 } }

    /// A new static random device address: the two most significant bits 1, the other 46 bits
    /// random and neither all 0 nor all 1 (Core Vol 6 Part B 1.3.2.1).
    public static func randomStatic<Generator: RandomNumberGenerator>(using generator: inout Generator) -> BluetoothAddress {
        while true {
            var octets = (0..<6).map { _ in UInt8.random(in: 0...255, using: &generator) }
            octets[0] |= 0xC0
            let rest = [octets[0] & 0x3F] + octets[1...]
            if rest.allSatisfy({ $0 == 0 }) || (octets[0] == 0xFF && octets[1...].allSatisfy { $0 == 0xFF }) { continue }
            return BluetoothAddress(hciBytes: octets.reversed(), type: .random)
        }
    }

    /// A new static random device address from the system's generator.
    public static func randomStatic() -> BluetoothAddress {
        var generator = SystemRandomNumberGenerator()
        return randomStatic(using: &generator)
    }

    /// `C5:A1:B2:C3:D4:E5`, followed by ` (random)` for random addresses.
    public var description: String {
        let text = octets.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: ":")
        switch type {
        case .public: return text
        case .random: return text + " (random)"
        case .publicIdentity: return text + " (public identity)"
        case .randomIdentity: return text + " (random identity)"
        }
    }
}
