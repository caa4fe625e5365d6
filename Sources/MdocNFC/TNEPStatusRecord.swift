import MdocModel

/// A TNEP Status record, well-known type `Te` (NFC Forum Tag NDEF Exchange Protocol 1.0,
/// 4.3): the tag's answer to a Service Select, `00` for success.
public struct TNEPStatusRecord: Sendable, Hashable {
    /// The well-known type: `Te`.
    public static let type = "Te"
    /// Status 0: success.
    public static let success: UInt8 = 0x00
    /// Status 1: TNEP protocol error.
    public static let protocolError: UInt8 = 0x01

    /// The status.
    public var status: UInt8

    /// A record of `status`.
    public init(status: UInt8) {
        self.status = status
    }

    /// Reads a `Te` record's payload: one byte.
    public init(payload: [UInt8]) throws(NFCError) {
        guard payload.count == 1 else {
            throw NFCError(payload.isEmpty ? .truncated : .trailingBytes, "a TNEP status record has 1 byte, not \(payload.count)", offset: 0)
        }
        status = payload[0]
    }

    /// The payload.
    public var payload: [UInt8] { [status] }

    /// The `Te` record.
    public var record: NDEFRecord {
        NDEFRecord(typeNameFormat: .wellKnown, type: Array(Self.type.utf8), payload: payload)
    }
}
