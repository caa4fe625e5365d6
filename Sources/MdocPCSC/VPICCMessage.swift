/// What vpcd sends a virtual card in one frame (``VPICCFrame``; vsmartcard's vpcd.h
/// `VPCD_CTRL_*`): a control of one octet, or a command APDU.
public enum VPICCMessage: Sendable, Hashable {
    /// `VPCD_CTRL_OFF` (0x00): the reader powered the card down. Not answered.
    case powerOff
    /// `VPCD_CTRL_ON` (0x01): the reader powered the card up. Not answered.
    case powerOn
    /// `VPCD_CTRL_RESET` (0x02): the reader reset the card. Not answered.
    case reset
    /// `VPCD_CTRL_ATR` (0x04): the reader asks for the card's ATR, which is the answer. vpcd asks
    /// whenever pcscd polls the card's presence, several times a second.
    case getATR
    /// A command APDU (ISO/IEC 7816-4 5.1), answered by the response APDU.
    case command([UInt8])

    /// The message of a control octet; nil for a value vpcd does not send.
    init?(control: UInt8) {
        switch control {
        case 0x00: self = .powerOff
        case 0x01: self = .powerOn
        case 0x02: self = .reset
        case 0x04: self = .getATR
        default: return nil
        }
    }
}
