import MdocBLE

/// An L2CAP basic information frame (B-frame): payload length, channel ID, payload (Bluetooth
/// Core Vol 3 Part A 3.1), and how it is cut into HCI ACL data packets (Core Vol 4 Part E 5.4.2).
public struct L2CAPBasicFrame: Sendable, Hashable {
    /// The octets of the basic L2CAP header (length and channel ID).
    public static let headerLength = 4

    /// The destination channel.
    public let channelID: UInt16
    /// The information payload: one ATT PDU, signalling command or SMP command.
    public let payload: [UInt8]

    /// A frame to `channelID` carrying `payload`.
    public init(channelID: UInt16, payload: [UInt8]) {
        self.channelID = channelID
        self.payload = payload
    }

    /// The frame as sent: header, then payload.
    public var bytes: [UInt8] {
        let length = UInt16(payload.count)
        return [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(channelID & 0xFF), UInt8(channelID >> 8)] + payload
    }

    /// The ACL data packets carrying this frame on `handle`, each at most `maximumDataLength`
    /// octets (the controller's LE ACL data packet length): the first marked as the start of a
    /// non-automatically-flushable PDU, as LE requires, the others as continuations
    /// (Core Vol 4 Part E 5.4.2).
    public func fragments(handle: UInt16, maximumDataLength: Int) -> [HCIACLData] {
        let bytes = self.bytes
        let size = max(1, maximumDataLength)
        return stride(from: 0, to: bytes.count, by: size).map { start in
            HCIACLData(handle: handle, packetBoundary: start == 0 ? .firstNonFlushable : .continuing,
                       data: Array(bytes[start..<min(start + size, bytes.count)]))
        }
    }
}
