import MdocBLE

/// Puts the ACL data packets of one connection back together into L2CAP basic frames
/// (Bluetooth Core Vol 3 Part A 3.1, 7.2; Core Vol 4 Part E 5.4.2): a start fragment begins a
/// frame, continuations add to it, and the header's length says when it is whole.
public struct L2CAPReassembler: Sendable {
    /// The longest payload accepted, 517 octets: the largest ATT_MTU (Core Vol 3 Part F 3.2.8),
    /// above the LE signalling and SMP MTUs (23 and 65) of the other fixed channels; no peer
    /// may send more to a host that offered no larger MTU (Core Vol 3 Part A 4.1).
    public static let maximumPayloadLength = 517

    private var partial: [UInt8] = []
    private var isCollecting = false

    /// A reassembler with nothing pending.
    public init() {}

    /// Adds one ACL data packet; returns the frame it completes, if any. Throws
    /// `malformedPacket` for a continuation without a start, a frame longer than its header
    /// declares or above ``maximumPayloadLength``; the pending frame is then dropped.
    public mutating func append(_ packet: HCIACLData) throws(BLEError) -> L2CAPBasicFrame? {
        switch packet.packetBoundary {
        case .firstFlushable, .firstNonFlushable, .complete:
            if isCollecting {
                reset()
                throw BLEError(.malformedPacket,
                               "a new L2CAP frame started on handle 0x\(hex(packet.handle)) before the previous one was complete")
            }
            isCollecting = true
            partial = packet.data
        case .continuing:
            guard isCollecting else {
                throw BLEError(.malformedPacket, "a continuing ACL fragment on handle 0x\(hex(packet.handle)) belongs to no L2CAP frame")
            }
            partial.append(contentsOf: packet.data)
        }
        guard partial.count >= L2CAPBasicFrame.headerLength else { return nil }
        let length = Int(partial[0]) | Int(partial[1]) << 8
        let channelID = UInt16(partial[2]) | UInt16(partial[3]) << 8
        guard length <= Self.maximumPayloadLength else {
            reset()
            throw BLEError(.malformedPacket,
                           "an L2CAP frame on channel 0x\(hex(channelID)) declares \(length) octets, above the \(Self.maximumPayloadLength) accepted")
        }
        let total = L2CAPBasicFrame.headerLength + length
        if partial.count < total { return nil }
        defer { reset() }
        guard partial.count == total else {
            throw BLEError(.malformedPacket,
                           "an L2CAP frame on channel 0x\(hex(channelID)) declares \(length) octets but \(partial.count - L2CAPBasicFrame.headerLength) arrived")
        }
        return L2CAPBasicFrame(channelID: channelID, payload: Array(partial[L2CAPBasicFrame.headerLength...]))
    }

    /// Whether part of a frame is pending.
    public var hasPartialFrame: Bool { isCollecting }

    private mutating func reset() {
        partial = []
        isCollecting = false
    }

    private func hex(_ value: UInt16) -> String { String(value, radix: 16) }
}
