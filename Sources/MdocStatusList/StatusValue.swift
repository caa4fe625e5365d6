import MdocCBOR

/// One entry of a status list: a Status Type value (draft-ietf-oauth-status-list section 7),
/// 0 to 255, of which a list of `bits` bits holds the first 2^bits.
public struct StatusValue: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The value as stored in the list.
    public let rawValue: UInt8

    /// The value `rawValue`.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 0x00 "VALID": the Referenced Token is valid (section 7.1).
    public static let valid = StatusValue(rawValue: 0x00)
    /// 0x01 "INVALID": revoked, annulled, taken back, recalled or cancelled (section 7.1).
    public static let invalid = StatusValue(rawValue: 0x01)
    /// 0x02 "SUSPENDED": temporarily invalid (section 7.1).
    public static let suspended = StatusValue(rawValue: 0x02)

    /// What section 7.1 makes of a value.
    public enum Kind: Sendable, Hashable {
        /// 0x00.
        case valid
        /// 0x01.
        case invalid
        /// 0x02.
        case suspended
        /// 0x03 and 0x0C to 0x0F, permanently reserved as application specific.
        case applicationSpecific
        /// Every other value, reserved for future registration.
        case reserved
    }

    /// The kind of this value (section 7.1).
    public var kind: Kind {
        switch rawValue {
        case 0x00: return .valid
        case 0x01: return .invalid
        case 0x02: return .suspended
        case 0x03, 0x0C...0x0F: return .applicationSpecific
        default: return .reserved
        }
    }

    /// The registered name ("VALID", "INVALID", "SUSPENDED"), else the value in hex with its kind.
    public var description: String {
        switch kind {
        case .valid: return "VALID"
        case .invalid: return "INVALID"
        case .suspended: return "SUSPENDED"
        case .applicationSpecific: return "0x\(Hex.encode([rawValue])) (application specific)"
        case .reserved: return "0x\(Hex.encode([rawValue])) (reserved)"
        }
    }
}
