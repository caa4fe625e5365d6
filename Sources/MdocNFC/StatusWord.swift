/// The status word SW1-SW2 ending every response APDU (ISO/IEC 7816-4 5.6, 5.1.3): `9000` for
/// success, `61XX` for more data to fetch with GET RESPONSE, and the errors a card answers with.
public struct StatusWord: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// SW1 in the high byte, SW2 in the low byte.
    public var rawValue: UInt16

    /// The status word of value `rawValue`.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The status word of `sw1` and `sw2`.
    public init(sw1: UInt8, sw2: UInt8) {
        rawValue = UInt16(sw1) << 8 | UInt16(sw2)
    }

    /// The first byte.
    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    /// The second byte.
    public var sw2: UInt8 { UInt8(truncatingIfNeeded: rawValue) }

    /// `9000`: normal processing.
    public static let success = StatusWord(rawValue: 0x9000)
    /// `6100`: response bytes still available, more than 255 of them or an unknown number
    /// (ISO/IEC 18013-5 8.3.3.1.2: ask for the maximum with GET RESPONSE).
    public static let moreDataAvailable = StatusWord(rawValue: 0x6100)
    /// `6700`: wrong length (no further indication).
    public static let wrongLength = StatusWord(rawValue: 0x6700)
    /// `6881`: logical channel not supported.
    public static let logicalChannelNotSupported = StatusWord(rawValue: 0x6881)
    /// `6884`: command chaining not supported.
    public static let commandChainingNotSupported = StatusWord(rawValue: 0x6884)
    /// `6982`: security status not satisfied.
    public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x6982)
    /// `6882`: secure messaging not supported.
    public static let secureMessagingNotSupported = StatusWord(rawValue: 0x6882)
    /// `6985`: conditions of use not satisfied.
    public static let conditionsOfUseNotSatisfied = StatusWord(rawValue: 0x6985)
    /// `6986`: command not allowed (no current EF).
    public static let commandNotAllowedNoCurrentEF = StatusWord(rawValue: 0x6986)
    /// `6A80`: incorrect parameters in the command data field.
    public static let incorrectData = StatusWord(rawValue: 0x6A80)
    /// `6A82`: file or application not found (also what a locked phone answers the NDEF
    /// application's SELECT with).
    public static let fileOrApplicationNotFound = StatusWord(rawValue: 0x6A82)
    /// `6A86`: incorrect parameters P1-P2.
    public static let incorrectParameters = StatusWord(rawValue: 0x6A86)
    /// `6B00`: wrong parameters P1-P2 (offset outside the EF).
    public static let wrongParameters = StatusWord(rawValue: 0x6B00)
    /// `6D00`: instruction code not supported or invalid.
    public static let instructionNotSupported = StatusWord(rawValue: 0x6D00)
    /// `6E00`: class not supported.
    public static let classNotSupported = StatusWord(rawValue: 0x6E00)
    /// `6F00`: no precise diagnosis.
    public static let noPreciseDiagnosis = StatusWord(rawValue: 0x6F00)

    /// `61XX`: `count` response bytes still available (0 meaning more than 255).
    public static func bytesAvailable(_ count: UInt8) -> StatusWord {
        StatusWord(sw1: 0x61, sw2: count)
    }

    /// Whether this is `61XX`.
    public var isBytesAvailable: Bool { sw1 == 0x61 }

    /// The hexadecimal value, `9000`.
    public var description: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
