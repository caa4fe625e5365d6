import NIOCore

/// The frames of the vpicc protocol between vsmartcard's vpcd driver and a virtual card
/// (vsmartcard's vpcd.c and vpcd.h): a payload after its length in two big-endian octets. From
/// vpcd, a payload of one octet is a control (``VPICCMessage``) and a longer one a command APDU;
/// from the card, the answer to a "get ATR" control or to a command. Only controls and commands
/// are answered.
public enum VPICCFrame {
    /// The octets of the length before each payload.
    public static let lengthSize = 2
    /// The longest payload the two-octet length can say: 65535 octets. It bounds both ways,
    /// so vpcd cannot carry a command APDU of more than 65535 octets (an extended APDU with
    /// 65528 data octets and no Le, or 65526 with Le) nor a response of more than 65533 data
    /// octets and the status word.
    public static let maximumPayloadLength = Int(UInt16.max)
    /// The length of a control payload.
    public static let controlLength = 1

    /// The frame of `payload`, which must be 1 to ``maximumPayloadLength`` octets.
    static func encode(_ payload: [UInt8]) -> ByteBuffer {
        precondition((1...maximumPayloadLength).contains(payload.count), "a vpicc payload of \(payload.count) octets")
        var buffer = ByteBuffer()
        buffer.reserveCapacity(lengthSize + payload.count)
        buffer.writeInteger(UInt16(payload.count), endianness: .big)
        buffer.writeBytes(payload)
        return buffer
    }
}
