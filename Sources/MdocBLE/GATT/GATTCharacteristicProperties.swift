/// The Characteristic Properties bit field of a characteristic declaration
/// (Bluetooth Core Vol 3 Part G 3.3.1.1, table 3.5).
public struct GATTCharacteristicProperties: OptionSet, Sendable, Hashable {
    /// The bit field octet.
    public let rawValue: UInt8

    /// The properties with bits `rawValue`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The value may be read (0x02).
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// The value may be written with a Write Command, without response (0x04).
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// The value may be written with a Write Request (0x08).
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// The value may be notified; the server adds a Client Characteristic Configuration
    /// descriptor (0x10).
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// The value may be indicated; the server adds a Client Characteristic Configuration
    /// descriptor (0x20).
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
}
